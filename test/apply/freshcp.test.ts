// Functions defined through a macro (branch freshcp): gtest's `TEST_F(Suite, Name) {…}`, Boost's
// `BOOST_AUTO_TEST_CASE(name) {…}` parse as C++ function definitions whose declarator is the
// macro. Named by the macro alone, every test in a file had one name, so the syntax pass matched a
// shown test to whichever look-alike held most of its lines (twin-content.ts) and swapped it over
// that one: round cp's cpp03 lost `GetRefreshesRecency` at confidence 1. The macro's arguments now
// name the test.
import { beforeAll, describe, expect, it } from 'vitest';
import { extractDefinitions } from '../../src/apply/syntax/definitions.js';
import { ensureAllGrammars, loadedParser } from '../../src/apply/syntax/grammars.js';
import { mergedEverywhere, BOTH_MODES } from './judged.js';

const names = (src: string): string[] => {
  const tree = loadedParser('cpp')!.parse(src)!;
  expect(tree.rootNode.hasError).toBe(false);
  const out = extractDefinitions(tree, 'cpp', src).map((d) => d.name);
  tree.delete();
  return out;
};

const test = (name: string, body: string[]): string => `TEST_F(LruCacheTest, ${name}) {\n${body.map((l) => `    ${l}\n`).join('')}}\n`;

const HEAD = '#include <gtest/gtest.h>\n\n#include <string>\n\n#include "cache/lru_cache.h"\n\nclass LruCacheTest : public ::testing::Test {\n protected:\n    cache::LruCache<std::string, int> cache_{3};\n};\n\n';
const overwrites = test('PutOverwritesExistingKey', ['cache_.put("a", 1);', 'cache_.put("a", 2);', 'EXPECT_EQ(*cache_.get("a"), 2);']);
const evicts = test('EvictsLeastRecentlyUsed', ['cache_.put("a", 1);', 'cache_.put("b", 2);', 'cache_.put("c", 3);', 'cache_.put("d", 4);', 'EXPECT_FALSE(cache_.get("a").has_value());']);
const refreshes = test('GetRefreshesRecency', ['cache_.put("a", 1);', 'cache_.put("b", 2);', 'cache_.put("c", 3);', 'cache_.get("a");', 'cache_.put("d", 4);', 'EXPECT_TRUE(cache_.get("a").has_value());', 'EXPECT_FALSE(cache_.get("b").has_value());']);
const erases = test('EraseRemovesKey', ['cache_.put("a", 1);', 'EXPECT_TRUE(cache_.erase("a"));']);

describe('functions defined through a macro (freshcp)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('a gtest or Boost test is named by its macro and arguments; ordinary functions and constructors keep their names', () => {
    const src = 'TEST_F(CacheTest, Evicts) {\n  EXPECT_TRUE(true);\n}\nTEST(Parser, Empty) {\n}\nBOOST_AUTO_TEST_CASE(reads_pair) {\n}\nint size(int n) { return n; }\nFoo::Foo(Bar) {}\n';
    expect(names(src)).toEqual(['TEST_F(CacheTest, Evicts)', 'TEST(Parser, Empty)', 'BOOST_AUTO_TEST_CASE(reads_pair)', 'size', 'Foo::Foo']);
  });

  it('two whole tests without markers, one edited and one new that reads like a later test: the later test stays (cp cpp03)', () => {
    const code = HEAD + overwrites + '\n' + evicts + '\n' + refreshes + '\n' + erases;
    const edited = test('PutOverwritesExistingKey', ['cache_.put("a", 1);', 'cache_.put("b", 2);', 'cache_.put("a", 10);', 'EXPECT_EQ(cache_.size(), 2u);', 'EXPECT_EQ(*cache_.get("a"), 10);']);
    const added = test('PutOverwriteRefreshesRecency', ['cache_.put("a", 1);', 'cache_.put("b", 2);', 'cache_.put("c", 3);', 'cache_.put("a", 10);', 'cache_.put("d", 4);', 'EXPECT_TRUE(cache_.get("a").has_value());', 'EXPECT_FALSE(cache_.get("b").has_value());']);
    // Main swapped the new test over GetRefreshesRecency (six of its seven lines) at confidence 1.
    mergedEverywhere(code, edited + '\n' + added, HEAD + edited + '\n' + added + '\n' + evicts + '\n' + refreshes + '\n' + erases, null, BOTH_MODES);
  });

  it('one test between markers rewritten so that it reads like its neighbour: that test is edited, the neighbour stays', () => {
    const burst = test('AllowsBurst', ['cache_.put("k", 1);', 'cache_.put("k", 2);', 'EXPECT_EQ(*cache_.get("k"), 2);']);
    const keys = test('KeysAreIndependent', ['cache_.put("a", 1);', 'EXPECT_FALSE(cache_.get("b").has_value());']);
    const keysNew = test('KeysAreIndependent', ['cache_.put("k", 1);', 'cache_.put("k", 2);', 'EXPECT_EQ(*cache_.get("k"), 2);', 'EXPECT_FALSE(cache_.get("other").has_value());']);
    const code = HEAD + burst + '\n' + keys + '\n' + erases;
    // Main swapped it over AllowsBurst, which holds three of its lines.
    mergedEverywhere(code, '// ... existing tests ...\n\n' + keysNew + '\n// ... existing tests ...\n', HEAD + burst + '\n' + keysNew + '\n' + erases, null, BOTH_MODES);
  });
});
