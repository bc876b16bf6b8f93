// Lisp-family files (branch lookx): blocks close at the end of a code line, and definitions are
// forms (`(defn name …)`, `(defun name …)`, `(define (name …) …)`).
// - A closer-only line right after a marker (`;; ... unchanged ...` / `  )`) stands for the elided
//   body's closers, which the original keeps at the end of its last line: it is no new code
//   (extra-closers.ts).
// - An opening bracket glued to a marker comment (` {;; ...`) is that original line and a marker
//   (trailing-marker.ts).
// - A definition form names a block: a removal described in words ("the debug dump endpoint") finds
//   `(defn debug-dump …)`, and a new `(defun a-setup …)` is no edit of `(defun b-setup …)`
//   (removals.ts, described-targets.ts, block-names.ts).
// And in any language: a block's last `return` rewritten after a marker replaces the old one, which
// the marker would keep right above it, unreachable (terminal-edit.ts).
import { describe, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';

function exactIn(mode: 'fast' | 'large', code: string, update: string, expected: string, instruction: string | null): void {
  mergedEverywhere(code, update, expected, instruction, [mode]);
}

const handlers = [
  '(ns shop.web',
  '  (:require [compojure.core :refer [defroutes GET context]]',
  '            [ring.util.response :refer [response]]))',
  '',
  '(defn list-orders [req]',
  '  (let [user (:user req)]',
  '    (response (orders/for-user user))))',
  '',
  '(defn metrics-dump [_req]',
  '  (response {:threads (Thread/activeCount)',
  '             :env     (into {} (System/getenv))}))',
  '',
  '(defroutes app-routes',
  '  (GET "/metrics/dump" req (metrics-dump req))',
  '  (context "/api/orders" []',
  '    (GET "/" req (list-orders req))))',
];

describe('Lisp-family files (lookx)', () => {
  it('a definition removed by a described name, shown by adjacency, with a lone ) closing the elided body above', () => {
    const code = lines(handlers);
    const update = lines(['(defn list-orders [req]', '  ;; ... unchanged ...', '  )', '', '(defroutes app-routes', '  (context "/api/orders" []', '    ;; ... unchanged ...']);
    const expected = lines([...handlers.slice(0, 8), '(defroutes app-routes', ...handlers.slice(14)]);
    for (const mode of ['fast', 'large'] as const) exactIn(mode, code, update, expected, 'Remove the metrics dump endpoint, it leaks the environment');
  });

  it('a lone ) after a marker adds no line of its own when a new definition follows', () => {
    const code = lines([
      '(defun my/ui-setup ()',
      '  "Fonts and theme."',
      "  (load-theme 'modus-vivendi t)",
      '  (set-face-attribute \'default nil :height 130))',
      '',
      '(defun my/keys-setup ()',
      '  "Global keys."',
      '  (global-set-key (kbd "C-c g") #\'magit-status))',
      '',
      '(my/ui-setup)',
      '(my/keys-setup)',
    ]);
    const update = lines([
      '(defun my/ui-setup ()',
      '  ;; ... existing settings ...',
      '  )',
      '',
      '(defun my/modeline-setup ()',
      '  "Mode line."',
      '  (column-number-mode 1))',
      '',
      ';; ... rest of file ...',
    ]);
    const expected = code.replace('(defun my/keys-setup ()', '(defun my/modeline-setup ()\n  "Mode line."\n  (column-number-mode 1))\n\n(defun my/keys-setup ()');
    exactIn('fast', code, update, expected, null);
  });

  it('an opening brace glued to a marker comment stands for the original line it opens', () => {
    const code = lines([
      '{:paths ["src"]',
      ' :aliases',
      ' {:dev {:extra-paths ["dev"]}',
      '  :test {:extra-paths ["test"]',
      '         :main-opts ["-m" "kaocha.runner"]}',
      '  :build {:deps {io.github.clojure/tools.build {:mvn/version "0.10.0"}}',
      '          :ns-default build}}}',
    ]);
    const update = lines([
      ' :aliases',
      ' {;; ...',
      '  :test {:extra-paths ["test"]',
      '         :extra-deps {lambdaisland/kaocha {:mvn/version "1.91.1392"}}',
      '         :main-opts ["-m" "kaocha.runner"]}',
      '  ;; ...',
    ]);
    const expected = code.replace('  :test {:extra-paths ["test"]\n', '  :test {:extra-paths ["test"]\n         :extra-deps {lambdaisland/kaocha {:mvn/version "1.91.1392"}}\n');
    exactIn('fast', code, update, expected, null);
  });

  it('control: in a file that writes closer-only lines, a closer after a marker is read as before', () => {
    const code = lines(['function total(items) {', '  let sum = 0;', '  for (const i of items) sum += i.price;', '  return sum;', '}', '', 'module.exports = { total };']);
    const update = lines(['function total(items) {', '  // ... existing code ...', '}', '', 'function count(items) {', '  return items.length;', '}', '', '// ... rest of file ...']);
    exactIn('fast', code, update, code.replace('}\n\nmodule', '}\n\nfunction count(items) {\n  return items.length;\n}\n\nmodule'), null);
  });
});

describe('a block\'s last return rewritten after a marker (lookx)', () => {
  const go = [
    'func WriteLines(dst io.Writer, rows []Row) error {',
    '\tbw := bufio.NewWriter(dst)',
    '\tfor _, r := range rows {',
    '\t\tif _, err := fmt.Fprintln(bw, r.Name); err != nil {',
    '\t\t\treturn err',
    '\t\t}',
    '\t}',
    '\treturn nil',
    '}',
  ];

  it('Go: `return nil` → `return bw.Flush()` after a marker for the loop, the old return not kept above', () => {
    const code = lines(go);
    const update = lines(['func WriteLines(dst io.Writer, rows []Row) error {', '\t// ... loop unchanged ...', '\treturn bw.Flush()', '}']);
    for (const mode of ['fast', 'large'] as const) exactIn(mode, code, update, code.replace('\treturn nil\n', '\treturn bw.Flush()\n'), null);
  });

  it('Python: a method\'s last return rewritten after a marker, the block ended by a dedent', () => {
    const code = lines(['class Basket:', '    def total(self, skus):', '        if not skus:', '            return 0.0', '        subtotal = sum(self.price(s) for s in skus)', '        return subtotal', '', '    def clear(self):', '        self.items.clear()']);
    const update = lines(['    def total(self, skus):', '        # ... existing checks ...', '        return round(subtotal * 1.2, 2)', '', '    def clear(self):']);
    exactIn('fast', code, update, code.replace('        return subtotal\n', '        return round(subtotal * 1.2, 2)\n'), null);
  });

  it('control: a return added after a last line that is no return keeps that line', () => {
    const code = lines(['class Basket:', '    def clear(self):', '        removed = list(self.items)', '        self.items.clear()', '', '    def size(self):', '        return len(self.items)']);
    const update = lines(['    def clear(self):', '        # ... existing code ...', '        return len(removed)', '', '    def size(self):']);
    exactIn('fast', code, update, code.replace('        self.items.clear()\n', '        self.items.clear()\n        return len(removed)\n'), null);
  });
});
