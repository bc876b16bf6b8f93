// Branch verify: a merged file that fails to parse where its original parsed is reported, has its
// confidence lowered, and is merged again another way when one parses (src/apply/syntax/parse-check.ts,
// src/apply/merge.ts mergeApply). Inputs written here, in Go and Rust.
import { beforeAll, describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureGrammar } from '../../src/apply/syntax/grammars.js';
import { newSyntaxErrors } from '../../src/apply/syntax/parse-check.js';

const go = `package shapes

import "fmt"

func Area(w, h int) int {
\treturn w * h
}

func Describe(w, h int) string {
\treturn fmt.Sprintf("%dx%d", w, h)
}

func Perimeter(w, h int) int {
\treturn 2 * (w + h)
}
`;

beforeAll(async () => {
  await ensureGrammar('go');
  await ensureGrammar('rust');
});

describe('verify: merged files that no longer parse', () => {
  it('names the lines where the result breaks a cleanly parsing original, and nothing otherwise', () => {
    expect(newSyntaxErrors(go, go.replace('return w * h', 'return w * h * 2'))).toBeNull();
    // A closer lost: the error sits at or after the function that lost it.
    const broken = newSyntaxErrors(go, go.replace('\treturn w * h\n}\n', '\treturn w * h\n'));
    expect(broken).not.toBeNull();
    expect(broken!.every((l) => l >= 5)).toBe(true);
    // An original that does not parse itself gives no signal.
    const messy = go.replace('func Perimeter(w, h int) int {', 'func Perimeter(w, h int) int {{');
    expect(newSyntaxErrors(messy, messy + '}}}\n')).toBeNull();
  });

  it('reports an update that breaks the syntax itself, with its confidence lowered, and keeps the update', () => {
    const update = `// ... existing code ...

func Describe(w, h int) string {
\treturn fmt.Sprintf("%dx%d", w, h))
}

// ... existing code ...
`;
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const r = mergeApply({ code: go, update, instruction: null }, mode);
      expect(r.content, mode).toBe(go.replace('w, h)\n}', 'w, h))\n}'));
      expect(r.report.syntaxErrors, mode).toEqual([10]);
      expect(r.confidence, mode).toBeLessThanOrEqual(0.3);
      expect(r.ambiguities.join(' '), mode).toContain('does not parse at line 10');
    }
  });

  it('leaves a result that parses as it was', () => {
    const rust = `pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

pub fn sub(a: i32, b: i32) -> i32 {
    a - b
}
`;
    const update = `pub fn add(a: i32, b: i32) -> i32 {
    a.saturating_add(b)
}

// ... rest unchanged ...
`;
    const r = mergeApply({ code: rust, update, instruction: null }, 'fast');
    expect(r.content).toBe(rust.replace('    a + b', '    a.saturating_add(b)'));
    expect(r.report.syntaxErrors).toBeUndefined();
    expect(r.report.retried).toBeUndefined();
    expect(r.confidence).toBe(1);
  });

  it('merges again on lines when the syntax pass broke a renamed definition, in every mode', () => {
    // The renamed head with a body marker is not the original definition for the syntax pass; the
    // line merge then puts the new head at the wrong place and the file no longer parses.
    const code = "use crate::cache::Cache;\nuse crate::db::Db;\nuse crate::types::User;\n\nconst USER_TTL: u64 = 300;\n\npub fn load_user(db: &Db, cache: &Cache, id: &str) -> Option<User> {\n    if let Some(user) = cache.get(id) {\n        return Some(user);\n    }\n    let user = db.find_user(id)?;\n    cache.put(id, &user, USER_TTL);\n    Some(user)\n}\n\npub fn require_user(db: &Db, cache: &Cache, id: &str) -> Result<User, String> {\n    let user = load_user(db, cache, id);\n    user.ok_or_else(|| format!(\"no user {}\", id))\n}\n\npub fn is_admin(db: &Db, cache: &Cache, id: &str) -> bool {\n    let user = load_user(db, cache, id);\n    user.map(|u| u.role == \"admin\").unwrap_or(false)\n}\n";
    const update = "pub fn get_user_by_id(db: &Db, cache: &Cache, id: &str) -> Option<User> {\n    // ... existing code ...\n}\n\npub fn require_user(db: &Db, cache: &Cache, id: &str) -> Result<User, String> {\n    let user = get_user_by_id(db, cache, id);\n    // ...\n}\n\npub fn is_admin(db: &Db, cache: &Cache, id: &str) -> bool {\n    let user = get_user_by_id(db, cache, id);\n    user.map(|u| u.role == \"admin\").unwrap_or(false)\n}\n";
    const expected = code.replaceAll('load_user', 'get_user_by_id');
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const r = mergeApply({ code, update, instruction: 'Rename load_user to get_user_by_id and update its callers' }, mode);
      expect(r.content, mode).toBe(expected);
      expect(r.report.retried, mode).toBeDefined();
      expect(r.confidence, mode).toBeLessThanOrEqual(0.5);
    }
  });
});
