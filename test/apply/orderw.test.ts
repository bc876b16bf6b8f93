// Guard of branch orderw (docs/apply.md): hunks written in reverse file order with a note between
// them that has no dots (`// and in the constructor:`, `// --- and in Load ---`), and a reversed hunk
// that opens with its edited head. The note separates the hunks as a marker does; the no-loss pass
// places a segment by its first line the original has once, so the marker before the edited head
// does not stand for the head it replaces. Revealed by PowerShell, Python, JavaScript and Swift
// cases (sets af, ao, at); the guards are Go and C#.
import { describe, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';

const goHead = ['package store', '', 'import "os"', '', 'type Store struct {', '\tdir  string', '\tmode os.FileMode', '}', ''];
const goNew = (sig: string, body: string): string[] => [sig, body, '}', ''];
const goSave = (extra: string[]): string[] => [
  'func (s *Store) Save(name string, data []byte) error {', '\tpath := s.dir + "/" + name', ...extra, '\treturn os.WriteFile(path, data, s.mode)', '}'];
const goCode = lines([...goHead, ...goNew('func New(dir string) *Store {', '\treturn &Store{dir: dir, mode: 0o644}'), ...goSave([])]);
const goUpdate = lines([
  ...goSave(['\tif err := os.MkdirAll(s.dir, 0o755); err != nil {', '\t\treturn err', '\t}']), '',
  '// and in the constructor:', '',
  'func New(dir string, mode os.FileMode) *Store {', '\treturn &Store{dir: dir, mode: mode}', '}']);
const goExpected = lines([...goHead, ...goNew('func New(dir string, mode os.FileMode) *Store {', '\treturn &Store{dir: dir, mode: mode}'),
  ...goSave(['\tif err := os.MkdirAll(s.dir, 0o755); err != nil {', '\t\treturn err', '\t}'])]);

const csFields = (extra: string[]): string[] => ['    private readonly string _name;', ...extra, '    private int _count;', ''];
const csCtor = (sig: string, extra: string[]): string[] => [sig, '    {', '        _name = name;', ...extra, '        _count = 0;', '    }', ''];
const csTick = (extra: string[]): string[] => ['    public void Tick()', '    {', '        _count++;', ...extra, '    }', '}'];
const csCode = lines(['public sealed class Counter', '{', ...csFields([]), ...csCtor('    public Counter(string name)', []), ...csTick([])]);
const csUpdate = lines([
  ...csTick(['        _log.Write($"{_name}: {_count}");']), '',
  '// ... and in the constructor:', '',
  ...csCtor('    public Counter(string name, TextWriter log)', ['        _log = log;']).slice(0, 5), '',
  '// ... plus the field next to the others:', '',
  '    private readonly string _name;', '    private readonly TextWriter _log;', '    private int _count;']);
const csExpected = lines(['public sealed class Counter', '{', ...csFields(['    private readonly TextWriter _log;']),
  ...csCtor('    public Counter(string name, TextWriter log)', ['        _log = log;']), ...csTick(['        _log.Write($"{_name}: {_count}");'])]);

describe('orderw: hunks in reverse order, notes without dots', () => {
  it('a note without dots between two reversed hunks separates them (Go)', () => mergedEverywhere(goCode, goUpdate, goExpected));
  it('a reversed hunk that opens with its edited head replaces it (C#)', () => mergedEverywhere(csCode, csUpdate, csExpected));
});
