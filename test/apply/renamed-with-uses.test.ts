// Branch usesy: a helper renamed with its callers, its body rewritten. The update shows each caller
// with the new name in the caller's place and the helper's new head and body; the old name appears
// nowhere. The rename carried through the callers is the evidence that the new head is the old one
// renamed (rename-evidence.ts renamedWithUses), so the old helper is not kept beside the new one.
// Written in Swift and Elixir, not the languages of the cases that revealed the class (set an rb01,
// Ruby); both fail without the rule. A new helper shown under the old one it calls, callers
// switched, keeps the old one (a control).
import { describe, expect, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';

describe('usesy: a definition renamed with its uses, its body rewritten', () => {
  it('swift: a private helper renamed with three callers, the renamed part a word of other lines', () => {
    const helper = (name: string, body: string[]): string[] => [`    private func ${name}(_ value: Double) -> String {`, ...body, '    }'];
    const file = (name: string, body: string[]): string => lines([
      'import Foundation', '', 'struct ReceiptView {', '    let subtotal: Double', '    let tax: Double', '',
      '    var subtotalText: String {', `        ${name}(subtotal)`, '    }', '',
      '    var taxText: String {', `        ${name}(tax)`, '    }', '',
      '    var totalText: String {', '        let amount = subtotal + tax', `        return ${name}(amount)`, '    }', '',
      ...helper(name, body), '}',
    ]);
    const oldBody = ['        String(format: "%.2f", value)'];
    const newBody = ['        let formatter = NumberFormatter()', '        formatter.numberStyle = .currency', '        return formatter.string(from: NSNumber(value: value)) ?? ""'];
    const update = lines([
      '// ... existing code ...', '    var subtotalText: String {', '        formatCurrency(subtotal)', '    }',
      '// ... existing code ...', '    var taxText: String {', '        formatCurrency(tax)', '    }',
      '// ... existing code ...', '        let amount = subtotal + tax', '        return formatCurrency(amount)', '    }', '',
      ...helper('formatCurrency', newBody), '}',
    ]);
    mergedEverywhere(file('formatAmount', oldBody), update, file('formatCurrency', newBody));
  });

  it('elixir: a private function renamed as a whole with its callers', () => {
    const file = (name: string, body: string[]): string => lines([
      'defmodule Shop.Orders do', '  alias Shop.Repo', '',
      '  def place(order) do', '    Repo.insert!(order)', `    ${name}(order, :placed)`, '  end', '',
      '  def cancel(order) do', '    Repo.delete!(order)', `    ${name}(order, :cancelled)`, '  end', '',
      `  defp ${name}(order, event) do`, ...body, '  end', 'end',
    ]);
    const oldBody = ['    IO.puts("order #{order.id} #{event}")'];
    const newBody = ['    :telemetry.execute([:shop, :order, event], %{count: 1}, %{id: order.id})'];
    const update = lines([
      '  # ... existing code ...', '    Repo.insert!(order)', '    emit_order_event(order, :placed)', '  end',
      '  # ... existing code ...', '    Repo.delete!(order)', '    emit_order_event(order, :cancelled)', '  end', '',
      '  defp emit_order_event(order, event) do', ...newBody, '  end', 'end',
    ]);
    mergedEverywhere(file('log_change', oldBody), update, file('emit_order_event', newBody));
  });

  it('a new helper shown below the old one it calls, callers switched, keeps the old one (control)', () => {
    const code = lines([
      'function readConfig(path) {', '  return JSON.parse(fs.readFileSync(path, "utf8"));', '}', '',
      'function start(path) {', '  const config = readConfig(path);', '  listen(config.port);', '}', '',
      'function check(path) {', '  const config = readConfig(path);', '  return Boolean(config.port);', '}',
    ]);
    const update = lines([
      'function readConfig(path) {', '  return JSON.parse(fs.readFileSync(path, "utf8"));', '}', '',
      'function readConfigWithEnv(path) {', '  return { ...readConfig(path), ...process.env };', '}', '',
      'function start(path) {', '  const config = readConfigWithEnv(path);', '// ... existing code ...',
      'function check(path) {', '  const config = readConfigWithEnv(path);', '// ... existing code ...',
    ]);
    const expected = lines([
      'function readConfig(path) {', '  return JSON.parse(fs.readFileSync(path, "utf8"));', '}', '',
      'function readConfigWithEnv(path) {', '  return { ...readConfig(path), ...process.env };', '}', '',
      'function start(path) {', '  const config = readConfigWithEnv(path);', '  listen(config.port);', '}', '',
      'function check(path) {', '  const config = readConfigWithEnv(path);', '  return Boolean(config.port);', '}',
    ]);
    mergedEverywhere(code, update, expected);
  });
});
