// An annotation whose arguments span lines is one annotation to its closing bracket: when a marker
// inside its list leaves the annotation's start to the original, a definition the update shows
// below it is swapped from its head down, not from a row inside the annotation
// (syntax/kept-decorators.ts swapStart). Revealed by pytest `parametrize` lists (sets u py03,
// ac py04: the decorator's head was dropped and the file no longer parsed); the guards are a
// Java JUnit value list and a Kotlin Spring mapping, each with a twin whose annotation looks the same.
import { beforeAll, describe, expect, it } from 'vitest';
import { mergedEverywhere } from './judged.js';
import { ensureGrammar } from '../../src/apply/syntax/grammars.js';

const javaCode = [
  'package org.acme.text;',
  '',
  'import static org.junit.jupiter.api.Assertions.assertEquals;',
  '',
  'import org.junit.jupiter.params.ParameterizedTest;',
  'import org.junit.jupiter.params.provider.ValueSource;',
  '',
  'class SlugTest {',
  '    @ParameterizedTest',
  '    @ValueSource(strings = {',
  '        "Hello World",',
  '        "hello-world",',
  '        "  Hello   World  ",',
  '    })',
  '    void slugifiesToTheSameSlug(String title) {',
  '        assertEquals("hello-world", Slug.of(title));',
  '    }',
  '',
  '    @ParameterizedTest',
  '    @ValueSource(strings = {',
  '        "",',
  '        "   ",',
  '        "---",',
  '    })',
  '    void emptyTitlesGiveNoSlug(String title) {',
  '        assertEquals("", Slug.of(title));',
  '    }',
  '}',
  '',
].join('\n');
const java = {
  code: javaCode,
  update: [
    '    @ValueSource(strings = {',
    '        // ... existing titles ...',
    '        "---",',
    '        "\\t\\n",',
    '        "!!!",',
    '    })',
    '    void emptyTitlesGiveNoSlug(String title) {',
    '        assertEquals("", Slug.of(title), () -> "title <" + title + ">");',
    '    }',
    '}',
  ].join('\n'),
  expected: javaCode
    .replace('        "---",\n    })', '        "---",\n        "\\t\\n",\n        "!!!",\n    })')
    .replace('        assertEquals("", Slug.of(title));', '        assertEquals("", Slug.of(title), () -> "title <" + title + ">");'),
};

const kotlinCode = [
  'package dev.acme.orders',
  '',
  'import org.springframework.http.MediaType',
  'import org.springframework.web.bind.annotation.GetMapping',
  'import org.springframework.web.bind.annotation.PathVariable',
  'import org.springframework.web.bind.annotation.RestController',
  '',
  '@RestController',
  'class OrderController(private val orders: OrderService) {',
  '    @GetMapping(',
  '        value = ["/orders"],',
  '        produces = [',
  '            MediaType.APPLICATION_JSON_VALUE,',
  '            "text/csv",',
  '        ],',
  '    )',
  '    fun list(): List<Order> {',
  '        return orders.all()',
  '    }',
  '',
  '    @GetMapping(',
  '        value = ["/orders/{id}"],',
  '        produces = [',
  '            MediaType.APPLICATION_JSON_VALUE,',
  '            "text/csv",',
  '        ],',
  '    )',
  '    fun get(@PathVariable id: Long): Order {',
  '        return orders.find(id)',
  '    }',
  '}',
  '',
].join('\n');
const kotlin = {
  code: kotlinCode,
  update: [
    '    @GetMapping(',
    '        value = ["/orders/{id}"],',
    '        produces = [',
    '            // ... existing types ...',
    '            "text/csv",',
    '            MediaType.APPLICATION_PDF_VALUE,',
    '        ],',
    '    )',
    '    fun get(@PathVariable id: Long): Order {',
    '        return orders.find(id) ?: throw OrderNotFound(id)',
    '    }',
    '}',
  ].join('\n'),
  expected: kotlinCode
    .replace('            "text/csv",\n        ],\n    )\n    fun get', '            "text/csv",\n            MediaType.APPLICATION_PDF_VALUE,\n        ],\n    )\n    fun get')
    .replace('        return orders.find(id)\n', '        return orders.find(id) ?: throw OrderNotFound(id)\n'),
};

describe('a marker inside a multi-line annotation above a definition shown whole', () => {
  beforeAll(async () => {
    expect(await ensureGrammar('java')).not.toBeNull();
    expect(await ensureGrammar('kotlin')).not.toBeNull();
  });

  for (const [name, c] of [['Java JUnit value list', java], ['Kotlin Spring mapping', kotlin]] as const) {
    it(`keeps the annotation and its twin (${name})`, () => {
      expect(c.expected).not.toBe(c.code);
      mergedEverywhere(c.code, c.update, c.expected);
    });
  }
});
