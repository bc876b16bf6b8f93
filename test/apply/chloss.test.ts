// A lone new definition pulled out to column 0 (branch chloss): the update is one method and
// nothing else, written without its class and unindented, and the instruction names the member it
// goes beside ("Add a retry_after method … right after remaining()"). instructed-place.ts placed
// such a definition only at the named member's own indentation, so the line alignment read the new
// method as the edit of the sibling whose lines it copies and dropped that sibling's lines (28ch
// cpp01). It now goes in at the named member's depth, every line shifted by that much; the named
// member is also found behind a qualified return type (`std::uint32_t remaining(…) {`).
import { describe, expect, it } from 'vitest';
import { definesName } from '../../src/apply/definition-blocks.js';
import { BOTH_MODES, mergedEverywhere } from './judged.js';

const cls = `class TokenBucket:
    """A token bucket refilled continuously."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)

    def take(self, n: int = 1) -> bool:
        self._refill()
        if self.tokens < n:
            return False
        self.tokens -= n
        return True

    def reset(self) -> None:
        self.tokens = float(self.burst)
`;

const method = `def available(self) -> int:
    self._refill()
    if self.tokens < 1:
        return 0
    return int(self.tokens)
`;

const cpp = `class Limiter {
public:
    std::uint32_t remaining(const std::string& key) {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = logs_.find(key);
        if (it == logs_.end()) {
            return limit_;
        }
        return limit_ - it->second;
    }

    std::size_t sweep() {
        std::lock_guard<std::mutex> lock(mu_);
        std::size_t removed = 0;
        for (auto it = logs_.begin(); it != logs_.end();) {
            if (it->second == 0) {
                it = logs_.erase(it);
                ++removed;
            } else {
                ++it;
            }
        }
        return removed;
    }

private:
    std::mutex mu_;
    std::uint32_t limit_;
    std::unordered_map<std::string, std::uint32_t> logs_;
};
`;

const cppMethod = `bool known(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = logs_.find(key);
    if (it == logs_.end()) {
        return false;
    }
    return true;
}
`;

const indented = (t: string, by: string): string => t.split('\n').map((l) => (l ? by + l : l)).join('\n');

function exactEverywhere(code: string, update: string, instruction: string, expected: string): void {
  mergedEverywhere(code, update, expected, instruction, BOTH_MODES);
}

describe('a lone definition pulled out to column 0, placed by the instruction (chloss)', () => {
  it('a Python method written without its class goes in after the named method, at its depth', () => {
    const expected = cls.replace('    def reset(', `${indented(method, '    ')}\n    def reset(`);
    exactEverywhere(cls, method, 'Add an available() method to TokenBucket after take().', expected);
  });

  it("a C++ method after one whose return type is qualified keeps the sibling it copies (28ch cpp01's shape)", () => {
    const expected = cpp.replace('    std::size_t sweep() {', `${indented(cppMethod, '    ')}\n    std::size_t sweep() {`);
    exactEverywhere(cpp, cppMethod, 'Add a known method to Limiter right after remaining().', expected);
  });

  it('a qualified return type heads a definition of the name after it, not of a name inside it', () => {
    expect(definesName('    std::uint32_t remaining(const std::string& key) {', 'remaining')).toBe(true);
    expect(definesName('    std::optional<std::chrono::seconds> retry_after(const std::string& key) {', 'retry_after')).toBe(true);
    expect(definesName('    std::uint32_t remaining(const std::string& key) {', 'uint32_t')).toBe(false);
    expect(definesName('    return std::max(remaining(key), 0u);', 'remaining')).toBe(false);
  });

  it('control: a top-level function at column 0 beside a top-level one is placed as before', () => {
    const code = 'package cache\n\nfunc expired(n int) bool {\n\treturn n <= 0\n}\n\nfunc ttlOf(n int) int {\n\treturn n * 2\n}\n';
    const update = 'func sizeOf(n int) int {\n\treturn n + 1\n}\n';
    const expected = code.replace('func ttlOf', `${update}\nfunc ttlOf`);
    exactEverywhere(code, update, 'Add a sizeOf function after expired.', expected);
  });
});
