// A new handler copied from its neighbour (branch sibx): a closure registered under another literal
// (`"POST /jobs/{id}/retry"` beside `"POST /jobs/{id}/cancel"`) that shows exactly half of the
// neighbour's own lines. Main read it as the neighbour's edit and dropped the neighbour's head and
// its other lines; a head naming another thing by its literal is a copy unless its block shows more
// than half of the neighbour (copied-sibling.ts copyOf). Not reached yet: the same copy when its
// `if err != nil {` is a line the original has once (that inner block then stands for itself).
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { lines, mergedEverywhere } from './judged.js';

const head = ['package main', '', 'import (', '\t"encoding/json"', '\t"net/http"', ')', '', 'func routes(jobs *Queue) *http.ServeMux {', '\tmux := http.NewServeMux()', ''];
const list = [
  '\tmux.HandleFunc("GET /jobs", func(w http.ResponseWriter, r *http.Request) {',
  '\t\tall, err := jobs.All()',
  '\t\tif err != nil {',
  '\t\t\thttp.Error(w, err.Error(), http.StatusInternalServerError)',
  '\t\t\treturn',
  '\t\t}',
  '\t\tjson.NewEncoder(w).Encode(all)',
  '\t})',
  '',
];
const cancel = [
  '\tmux.HandleFunc("POST /jobs/{id}/cancel", func(w http.ResponseWriter, r *http.Request) {',
  '\t\tjob, err := jobs.Cancel(r.PathValue("id"))',
  '\t\tif err != nil {',
  '\t\t\thttp.Error(w, err.Error(), http.StatusConflict)',
  '\t\t\treturn',
  '\t\t}',
  '\t\tjobs.Notify(job.Owner, "cancelled")',
  '\t\tjson.NewEncoder(w).Encode(job)',
  '\t})',
  '',
];
const retry = [
  '\tmux.HandleFunc("POST /jobs/{id}/retry", func(w http.ResponseWriter, r *http.Request) {',
  '\t\tjob, err := jobs.Retry(r.PathValue("id"))',
  '\t\tif err != nil {',
  '\t\t\thttp.Error(w, err.Error(), http.StatusConflict)',
  '\t\t\treturn',
  '\t\t}',
  '\t\tjson.NewEncoder(w).Encode(job)',
  '\t})',
  '',
];
const tail = ['\treturn mux', '}'];

describe('a new handler copied from its neighbour (sibx)', () => {
  it('a closure under another path, showing half of the one above, goes in beside it in every mode', () => {
    const code = lines([...head, ...list, ...cancel, ...tail]);
    const update = lines(['\t// ... existing code ...', '', ...retry, ...tail]);
    mergedEverywhere(code, update, lines([...head, ...list, ...cancel, ...retry, ...tail]));
  });

  it('control: the same path renamed with most of its body kept is the closure edited in place', () => {
    const code = lines([...head, ...list, ...cancel, ...tail]);
    const renamed = [cancel[0]!.replace('/cancel', '/abort'), ...cancel.slice(1)];
    const update = lines(['\t// ... existing code ...', '', ...renamed, ...tail]);
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(checkLoss(code, update, null, r.content).lost).toEqual([]);
    expect(r.content).toBe(lines([...head, ...list, ...renamed, ...tail]));
  });
});
