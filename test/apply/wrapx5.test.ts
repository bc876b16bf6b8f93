// Branch wrapx5: a statement continued over deeper lines (a method chain) wrapped in a new block, its
// head rewritten (`let releases = self` → `let releases = loop {` / `let res = self`). Texts other than
// the cases that showed the class (28ca rs02, 27an rs01) and the probes (probes-wrapx5).
import { describe, expect, it } from 'vitest';
import { judged, lines, mergedEverywhere } from './judged.js';

describe('wrapx5: a continued statement wrapped in a new block', () => {
  const head = ['impl Api {', '    pub fn user(&self, id: u64) -> Result<User> {', '        let url = format!("{}/users/{}", self.base, id);'];
  const tail = ['        Ok(user)', '    }', '', '    pub fn base(&self) -> &str {', '        &self.base', '    }', '}'];

  it('rust: a chain wrapped in a retry loop, its tail rewritten into a match', () => {
    const chain = ['let user: User = self', '    .http', '    .get(&url)', '    .bearer_auth(&self.token)', '    .send()', '    .context("user request failed")?', '    .json()', '    .context("bad user json")?;'];
    const original = lines([...head, ...chain.map((l) => `        ${l}`), ...tail]);
    const loop = [
      '        let mut n = 0;',
      '        let user: User = loop {',
      '            n += 1;',
      '            let sent = self',
      '                .http',
      '                .get(&url)',
      '                .bearer_auth(&self.token)',
      '                .send();',
      '            match sent {',
      '                Ok(r) => break r.json().context("bad user json")?,',
      '                Err(e) if n < 3 => std::thread::sleep(Duration::from_millis(100 * n)),',
      '                Err(e) => return Err(e).context("user request failed"),',
      '            }',
      '        };',
    ];
    const update = lines(['        // ... existing code ...', head[2]!, ...loop, '        Ok(user)', '        // ... existing code ...']);
    mergedEverywhere(original, update, lines([...head, ...loop, ...tail]));
  });

  it('control: a new closure copying the chain at another depth is no licence to drop the statement the marker stands for', () => {
    const chain = ['        let user: User = self', '            .http', '            .get(&url)', '            .send()?', '            .json()?;'];
    const original = lines([...head, ...chain, ...tail]);
    const closure = ['        let from_mirror = |u: &str| -> Result<User> {', '            Ok(self', '                .http', '                .get(u)', '                .send()?', '                .json()?)', '        };'];
    const update = lines([head[2]!, ...closure, '        // ... existing code ...', '        Ok(user)', '    }']);
    // The statement dropped, only the closure's copies of its lines left: lossy (the moved-run licence needs the head above to be new and the copies in step with their neighbours, and the marker stands for the statement).
    const lost = judged(original, update, lines([...head, ...closure, ...tail]), lines([...head, ...closure, ...chain, ...tail]));
    expect(lost).toEqual([3, 5]);
  });
});
