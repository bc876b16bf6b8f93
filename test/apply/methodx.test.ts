// Guards of branch methodx (docs/apply.md): a method shown without its class. Revealed by held-out
// cases az java01 (lossy), bd rb19 and bc py17; the guards use other inputs and languages:
// - an overload added beside the one the update edits with its body left to a marker (C#): the syntax
//   pass must not swap the original by name;
// - a snippet rescaled to the file's unit keeps an aligned continuation's columns (Ruby, JavaScript);
// - a class named in words ("the Mailgun backend") tells same-named methods apart (Python);
// - a method copied from a twin class, shown below a line of its own class across a marker, is its
//   own class's edit, though its text is the twin's (Python; probe ts01 in TypeScript);
// - the counter-case: both overloads edited, one partial, nothing new: each stays in its own place
//   (passes on main too: a regression guard).
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { rescaleIndentUnit } from '../../src/apply/indent-unit.js';
import { instructionNames } from '../../src/apply/instruction-scope.js';
import { lines, mergedEverywhere } from './judged.js';

beforeAll(async () => { await ensureAllGrammars(); }, 60_000);

// C#: `Render(Page)` gains a theme; the old signature, shown whole after it, now delegates.
const csHead = ['using System.Text;', '', 'public sealed class PageRenderer', '{', '    private readonly Layout _layout;', ''];
const csOld = [
  '    public string Render(Page page)', '    {', '        var sb = new StringBuilder();', '        sb.Append(_layout.Header(page.Title));',
  '        sb.Append(page.Body);', '        sb.Append(_layout.Footer());', '        return sb.ToString();', '    }'];
const csTail = ['', '    public int Count(Page page) => page.Body.Length;', '}'];
const csUpdate = lines([
  '    public string Render(Page page, Theme theme)', '    {', '        // ... existing code ...', '        sb.Append(_layout.Footer(theme));', '        return sb.ToString();', '    }', '',
  '    public string Render(Page page)', '    {', '        return Render(page, Theme.Default);', '    }']);
const csExpected = lines([
  ...csHead,
  '    public string Render(Page page, Theme theme)', '    {', '        var sb = new StringBuilder();', '        sb.Append(_layout.Header(page.Title));',
  '        sb.Append(page.Body);', '        sb.Append(_layout.Footer(theme));', '        return sb.ToString();', '    }', '',
  '    public string Render(Page page)', '    {', '        return Render(page, Theme.Default);', '    }',
  ...csTail]);

// Java counter-case: both overloads edited, the first with its body left to a marker. The update shows
// as many `scale` methods as the file has, so none is new and each replaces its own.
const javaHead = ['public final class Vec {', '    private double x, y;', ''];
const javaOne = ['    public Vec scale(double k) {', '        if (Double.isNaN(k)) {', '            throw new IllegalArgumentException("NaN");', '        }', '        return new Vec(x * k, y * k);', '    }'];
const javaTwo = ['    public Vec scale(double kx, double ky) {', '        return new Vec(x * kx, y * ky);', '    }'];
const javaCode = lines([...javaHead, ...javaOne, '', ...javaTwo, '}']);
const javaUpdate = lines([
  '    public Vec scale(double k) {', '        checkFinite(k, k);', '        // ... existing code ...', '    }', '',
  '    public Vec scale(double kx, double ky) {', '        checkFinite(kx, ky);', '        return new Vec(x * kx, y * ky);', '    }']);
const javaExpected = lines([
  ...javaHead, javaOne[0]!, '        checkFinite(k, k);', ...javaOne.slice(1), '',
  '    public Vec scale(double kx, double ky) {', '        checkFinite(kx, ky);', '        return new Vec(x * kx, y * ky);', '    }', '}']);

// Python: three backends with the same `send`; the snippet at column 0; the instruction names the class in words.
const backend = (name: string, extra: string[] = []): string[] => [
  `class ${name}:`, '    def send(self, msg):', '        payload = self.encode(msg)', ...extra, '        return self.http.post(self.url, payload)', ''];
const pyCode = lines(['import json', '', '', ...backend('SmtpBackend'), '', ...backend('MailgunBackend'), '', ...backend('SesBackend')]);
const pyUpdate = lines(['def send(self, msg):', '    payload = self.encode(msg)', '    payload["o:tracking"] = "no"', '    return self.http.post(self.url, payload)']);
const pyExpected = lines(['import json', '', '', ...backend('SmtpBackend'), '', ...backend('MailgunBackend', ['        payload["o:tracking"] = "no"']), '', ...backend('SesBackend')]);

// Python: two caches; UserCache counts misses; the update gives TeamCache the same `get`, below a field only TeamCache has.
const cache = (name: string, field: string, miss: boolean): string[] => [
  `class ${name}:`, `    ${field}`, '', '    def get(self, key):', '        hit = self.store.get(key)',
  ...(miss ? ['        if hit is None:', '            metrics.incr("cache.miss")'] : []), '        return hit', ''];
const cacheCode = lines(['import metrics', '', '', ...cache('UserCache', 'ttl = 300', true), '', ...cache('TeamCache', 'max_teams = 50', false).slice(0, -1)]);
const cacheUpdate = lines([
  '    max_teams = 50', '    # ... existing code ...', '    def get(self, key):', '        hit = self.store.get(key)',
  '        if hit is None:', '            metrics.incr("cache.miss")', '        return hit']);
const cacheExpected = lines(['import metrics', '', '', ...cache('UserCache', 'ttl = 300', true), '', ...cache('TeamCache', 'max_teams = 50', true).slice(0, -1)]);

describe('methodx: a method shown without its class', () => {
  it('leaves an overload added beside a partly shown one to the line merge, which keeps the old body', () => {
    mergedEverywhere(lines([...csHead, ...csOld, ...csTail]), csUpdate, csExpected);
  });
  it('places a method copied from its twin in the class whose line the update shows above it', () => {
    mergedEverywhere(cacheCode, cacheUpdate, cacheExpected, 'count misses in the team cache too');
  });
  it('counter-case: both overloads edited, one partly, each in its own place', () => {
    mergedEverywhere(javaCode, javaUpdate, javaExpected);
  });
  it('keeps an aligned continuation\'s columns when rescaling the snippet\'s unit', () => {
    const ruby = 'class Mailer\n  def welcome(user)\n    @user = user\n    mail(to: user.email, subject: "Hi")\n  end\nend\n';
    const rb = 'def welcome(user)\n    @user = user\n    mail(to: user.email,\n         subject: "Hi #{user.name}")\nend\n';
    expect(rescaleIndentUnit(rb, ruby)).toBe('def welcome(user)\n  @user = user\n  mail(to: user.email,\n       subject: "Hi #{user.name}")\nend\n');
    // A continuation whose column happens to be a multiple of the unit is still one, being more than a level deeper.
    const js = 'class A {\n  run(x) {\n    const y = x + 1;\n    return y;\n  }\n}\n';
    const snippet = 'run(x) {\n    const y = f(x, {\n                a: 1 });\n    return y;\n}\n';
    expect(rescaleIndentUnit(snippet, js)).toBe('run(x) {\n  const y = f(x, {\n              a: 1 });\n  return y;\n}\n');
  });
  it('reads a class named in words as its PascalCase name', () => {
    expect([...instructionNames("retry in the Adyen client's _request")]).toContain('AdyenClient');
    mergedEverywhere(pyCode, pyUpdate, pyExpected, 'turn tracking off in the mailgun backend');
  });
});
