// Branch lossp: a new sibling that copies a definition's shape is not that definition's edit. The
// guards are written in formats other than the sets' cases that revealed the class (o js01 in
// JavaScript, p vue01 in a Vue component's CSS).
import { describe, expect, it } from 'vitest';
import { judged, lines } from './judged.js';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { splitLines } from '../../src/apply/lines.js';
import { otherHeadOverRewrittenBody } from '../../src/apply/rewritten-head.js';

const api = ['    location /api {', '        proxy_pass http://backend;', '        proxy_set_header Host $host;', '        proxy_read_timeout 30s;', '    }'];
const v2 = ['    location /api/v2 {', '        proxy_pass http://backend_v2;', '        client_max_body_size 10m;', '    }'];
const code = lines(['server {', '    listen 80;', '    server_name example.org;', '', ...api, '}']);
const update = lines(['server {', '    # ... existing config ...', '', ...v2, '}']);

describe('lossp: a head of another name over a body most of which is gone is a new sibling (nginx)', () => {
  it('the oracle counts the original block lost when the new block stands in its place', () => {
    const good = lines(['server {', '    listen 80;', '    server_name example.org;', '', ...api, '', ...v2, '}']);
    // `location /api {` read as renamed to `location /api/v2 {`, its body as rewritten: main's oracle passed this.
    const lossy = lines(['server {', '    listen 80;', '    server_name example.org;', '', ...v2, '}']);
    expect(judged(code, update, lossy, good)).toEqual([4, 5, 6, 7]);
  });

  it('no mode loses the original block', () => {
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const out = mergeApply({ code, update, instruction: null }, mode).content;
      expect(checkLoss(code, update, null, out).lost).toEqual([]);
      for (const line of api.slice(0, 4)) expect(out).toContain(line);
    }
  });

  it('an edit that keeps the name, or keeps a body line, is still the head\'s edit', () => {
    const o = splitLines(code);
    const kept = (): boolean => false;
    // Same name, body rewritten (a new signature over a new body).
    expect(otherHeadOverRewrittenBody(o, 4, 'location /api {', kept)).toBe(-1);
    // Another name, but most of the body stayed: a rename in place.
    expect(otherHeadOverRewrittenBody(o, 4, 'location /api/v2 {', (y) => y === 5 || y === 6)).toBe(-1);
    // Another name over a body none of which stayed, or one line of three: the body's end.
    expect(otherHeadOverRewrittenBody(o, 4, 'location /api/v2 {', (y) => y === 6)).toBe(8);
    expect(otherHeadOverRewrittenBody(o, 4, 'location /api/v2 {', kept)).toBe(8);
  });
});
