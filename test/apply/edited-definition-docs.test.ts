// Branch usesz: doc comments a writer leaves out above definitions it copies to edit them (a
// parameter added with its callers, a field with its uses). The edit under the head is the evidence
// that the comment was left out, not deleted (edited-definition-docs.ts). Guards in Swift and Lua,
// not the Go cases that revealed the class; the control deletes a comment with nothing edited under
// its head.
import { describe, expect, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';
import { mergeApply } from '../../src/apply/merge.js';

describe('usesz: doc comments above edited definitions', () => {
  const swift = lines([
    'import Foundation', '',
    'struct Order {', '    let id: String', '    let total: Double', '}', '',
    '/// Formats a price for the receipt.', 'func formatPrice(_ value: Double) -> String {', '    return String(format: "%.2f", value)', '}', '',
    '/// The receipt line of one order.', 'func receiptLine(_ order: Order) -> String {', '    return order.id + ": " + formatPrice(order.total)', '}', '',
    '/// The footer under every receipt.', 'func footer(_ orders: [Order]) -> String {', '    let sum = orders.reduce(0) { $0 + $1.total }', '    return "Total: " + formatPrice(sum)', '}',
  ]);

  it('swift: a parameter added with its callers keeps every doc comment', () => {
    const update = lines([
      '// ...', '',
      'func formatPrice(_ value: Double, currency: String) -> String {', '    return String(format: "%.2f", value) + " " + currency', '}', '',
      'func receiptLine(_ order: Order) -> String {', '    return order.id + ": " + formatPrice(order.total, currency: "EUR")', '}', '',
      'func footer(_ orders: [Order]) -> String {', '    let sum = orders.reduce(0) { $0 + $1.total }', '    return "Total: " + formatPrice(sum, currency: "EUR")', '}',
    ]);
    const expected = swift
      .replace('func formatPrice(_ value: Double) -> String {\n    return String(format: "%.2f", value)', 'func formatPrice(_ value: Double, currency: String) -> String {\n    return String(format: "%.2f", value) + " " + currency')
      .replace('formatPrice(order.total)', 'formatPrice(order.total, currency: "EUR")')
      .replace('formatPrice(sum)', 'formatPrice(sum, currency: "EUR")');
    mergedEverywhere(swift, update, expected);
  });

  const lua = lines([
    'local M = {}', '',
    '-- Reads the config file into a table.', 'function M.load(path)', '  local f = assert(io.open(path, "r"))', '  local text = f:read("*a")', '  f:close()', '  return M.parse(text)', 'end', '',
    '-- Parses key=value lines.', 'function M.parse(text)', '  local t = {}', '  for k, v in text:gmatch("(%w+)=(%w+)") do', '    t[k] = v', '  end', '  return t', 'end', '',
    'return M',
  ]);

  it('lua: a head edited with its body keeps the comment the update left out', () => {
    const update = lines([
      '-- ...', '  return M.parse(text)', 'end', '',
      'function M.parse(text, strict)', '  local t = {}', '  for k, v in text:gmatch("(%w+)=(%w+)") do', '    t[k] = v', '  end', '  if strict and next(t) == nil then', '    error("empty config")', '  end', '  return t', 'end', '-- ...',
    ]);
    const expected = lua
      .replace('function M.parse(text)', 'function M.parse(text, strict)')
      .replace('  end\n  return t', '  end\n  if strict and next(t) == nil then\n    error("empty config")\n  end\n  return t');
    expect(mergeApply({ code: lua, update, instruction: null }, 'fast').content).toBe(expected);
  });

  it('lua control: a comment deleted with nothing edited under its head goes in fast', () => {
    const update = lines(['-- ...', '  return M.parse(text)', 'end', '', 'function M.parse(text)', '  local t = {}', '-- ...']);
    expect(mergeApply({ code: lua, update, instruction: null }, 'fast').content).toBe(lua.replace('-- Parses key=value lines.\n', ''));
  });
});
