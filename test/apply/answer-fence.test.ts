// A model's whole answer pasted as the update (a sentence, one fenced block, a closing remark):
// for an original without fence lines the block is the update (merge-context.ts `unfence`); a
// fence in a Markdown original's update is content. Inputs are new, in Kotlin and Markdown.
import { describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';

const original = [
  'class Greeter(private val name: String) {',
  '    fun greet(): String {',
  '        return "Hello, $name"',
  '    }',
  '',
  '    fun farewell(): String {',
  '        return "Bye, $name"',
  '    }',
  '}',
  '',
].join('\n');

describe('an answer with prose around one fenced block', () => {
  it('merges the block and drops the prose', () => {
    const update = [
      "Here's the change, greeting in upper case:",
      '',
      '```kotlin',
      '    fun greet(): String {',
      '        return "Hello, ${name.uppercase()}"',
      '    }',
      '    // ... existing code ...',
      '```',
      '',
      'The rest of the class is unchanged.',
    ].join('\n');
    const r = mergeApply({ instruction: null, code: original, update }, 'fast');
    expect(r.content).toBe(original.replace('"Hello, $name"', '"Hello, ${name.uppercase()}"'));
  });
  it('keeps a fence as content when the original has fences itself', () => {
    const md = '# Greeter\n\n```kotlin\nGreeter("a").greet()\n```\n\n## Notes\n\nNone yet.\n';
    const update = '## Notes\n\nNone yet. Call it like this:\n\n```kotlin\nGreeter("b").farewell()\n```\n';
    const r = mergeApply({ instruction: null, code: md, update }, 'fast');
    expect(r.content).toBe('# Greeter\n\n```kotlin\nGreeter("a").greet()\n```\n\n## Notes\n\nNone yet. Call it like this:\n\n```kotlin\nGreeter("b").farewell()\n```\n');
  });
});
