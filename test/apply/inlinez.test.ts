// Laid-out lists whose head starts several original lines (docs/apply.md, branch inlinez). Revealed by
// generated TypeScript and JavaScript edits (`import {` among imports, `const {` destructurings); the
// guards are in other languages: a Kotlin call laid out one argument a row, its head written by three
// calls, placed by the original line above it; and a Ruby call whose two same-head lines share the
// shown arguments, only one of which has an argument where the marker row stands.
import { beforeAll, describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { mergedEverywhere } from './judged.js';

const kotlinCode = [
  'fun routes(app: Application) {',
  '    app.route("/health", Method.GET, healthHandler)',
  '    app.route("/users", Method.GET, listUsers, auth, audit)',
  '    app.route("/users", Method.POST, createUser, auth)',
  '}',
  '',
].join('\n');
const kotlinUpdate = [
  'fun routes(app: Application) {',
  '    // ...',
  '    app.route(',
  '        "/users",',
  '        Method.GET,',
  '        // ...',
  '        audit,',
  '        rateLimit,',
  '    )',
  '    // ...',
  '}',
  '',
].join('\n');
const kotlinExpected = [
  'fun routes(app: Application) {',
  '    app.route("/health", Method.GET, healthHandler)',
  '    app.route(',
  '        "/users",',
  '        Method.GET,',
  '        listUsers,',
  '        auth,',
  '        audit,',
  '        rateLimit,',
  '    )',
  '    app.route("/users", Method.POST, createUser, auth)',
  '}',
  '',
].join('\n');

const rubyCode = [
  'class Mailer',
  '  def reminder(user, order)',
  '    deliver(user.email, order.total)',
  '  end',
  '',
  '  def receipt(user, order)',
  '    deliver(user.email, :receipt, order.total)',
  '  end',
  'end',
  '',
].join('\n');
const rubyUpdate = [
  '  # ...',
  '    deliver(',
  '      user.email,',
  '      # ...',
  '      order.total,',
  '      order.currency,',
  '    )',
  '  # ...',
  '',
].join('\n');
const rubyExpected = [
  'class Mailer',
  '  def reminder(user, order)',
  '    deliver(user.email, order.total)',
  '  end',
  '',
  '  def receipt(user, order)',
  '    deliver(',
  '      user.email,',
  '      :receipt,',
  '      order.total,',
  '      order.currency,',
  '    )',
  '  end',
  'end',
  '',
].join('\n');

describe('laid-out lists whose head starts several original lines', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('the laid-out rows go where the one-line list they expand was, after the original line above it', () => {
    mergedEverywhere(kotlinCode, kotlinUpdate, kotlinExpected);
  });

  it('of two same-head lines sharing the shown elements, the one with elements where the marker stands', () => {
    mergedEverywhere(rubyCode, rubyUpdate, rubyExpected);
  });
});
