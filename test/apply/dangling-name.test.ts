// A definition is not replaced by one of another name while the merged file still uses the old
// name as often as before (dangling-name.ts). Held-out round au-ay lost an interface method this
// way (Kotlin); the tests are Swift, Go and Python. An import likewise (held-out round az-bd lost a
// Spring `GetMapping` import to a new `DeleteMapping` one shown where it stood).
import { describe, expect, it } from 'vitest';
import { judged, lines } from './judged.js';
import { checkLoss } from '../../src/apply/loss.js';

const goStore = lines([
  'type Store interface {',
  '\tSaveUser(ctx context.Context, u *User) error',
  '\tSetStatus(ctx context.Context, id string, status string) error',
  '\tClose() error',
  '}',
  '',
  'func (s *Service) Activate(ctx context.Context, id string) error {',
  '\treturn s.store.SetStatus(ctx, id, "active")',
  '}',
]);

describe('a definition whose name the merged file still uses is not replaced', () => {
  it('a new protocol method shown where a used one stood, with a new case shown where a used one stood, is new beside it (Swift)', () => {
    const code = lines([
    "protocol ChatStore {",
    "    func insertMessage(channelId: String, messageId: String, text: String)",
    "    func deleteMessage(channelId: String, messageId: String)",
    "    func setTyping(channelId: String, userId: String)",
    "    func setPresence(userId: String, online: Bool)",
    "}",
    "",
    "struct Decoder {",
    "    func decode(type: String, data: Data) -> Event? {",
    "        switch type {",
    "        case \"message.deleted\": return try? JSONDecoder().decode(MessageDeleted.self, from: data)",
    "        case \"typing.started\": return try? JSONDecoder().decode(TypingStarted.self, from: data)",
    "        default: return nil",
    "        }",
    "    }",
    "}",
    "",
    "func apply(_ event: Event, to store: ChatStore) {",
    "    if let e = event as? TypingStarted {",
    "        store.setTyping(channelId: e.channelId, userId: e.userId)",
    "    }",
    "}"
  ]);
    const update = lines([
    "protocol ChatStore {",
    "    // ...",
    "    func deleteMessage(channelId: String, messageId: String)",
    "    func addReaction(channelId: String, messageId: String, userId: String, emoji: String)",
    "    // ...",
    "}",
    "",
    "// ...",
    "        case \"message.deleted\": return try? JSONDecoder().decode(MessageDeleted.self, from: data)",
    "        case \"reaction.added\": return try? JSONDecoder().decode(ReactionAdded.self, from: data)",
    "// ..."
  ]);
    const good = code
      .replace('    func setTyping(', '    func addReaction(channelId: String, messageId: String, userId: String, emoji: String)\n    func setTyping(')
      .replace('        case "typing.started"', '        case "reaction.added": return try? JSONDecoder().decode(ReactionAdded.self, from: data)\n        case "typing.started"');
    const lossy = good.replace('    func setTyping(channelId: String, userId: String)\n', '');
    expect(judged(code, update, lossy, good)).toEqual([3]);
  });

  it('a new interface method shown where a used one stood is new beside it (Go)', () => {
    const update = lines(['type Store interface {', '\t// ...', '\tSaveUser(ctx context.Context, u *User) error', '\tSetRole(ctx context.Context, id string, role string) error', '\t// ...', '}']);
    const lossy = goStore.replace('\tSetStatus(ctx context.Context, id string, status string) error', '\tSetRole(ctx context.Context, id string, role string) error');
    const good = goStore.replace('\tSetStatus(ctx', '\tSetRole(ctx context.Context, id string, role string) error\n\tSetStatus(ctx');
    expect(judged(goStore, update, lossy, good)).toEqual([2]);
  });

  it('a rename carried to the uses may replace the definition (Go)', () => {
    const update = lines(['\tSaveUser(ctx context.Context, u *User) error', '\tSetState(ctx context.Context, id string, status string) error', '\t// ...', '\treturn s.store.SetState(ctx, id, "active")', '}']);
    const renamed = goStore.replace(/SetStatus/g, 'SetState');
    expect(checkLoss(goStore, update, null, renamed).lost).toEqual([]);
  });

  it('a definition no line uses may be renamed in place (Python)', () => {
    const code = lines(['class Report:', '    def total(self):', '        return sum(self.rows)', '', '    def render(self):', '        return "\\n".join(self.rows)']);
    const update = lines(['class Report:', '    # ...', '    def render_text(self):', '        return "\\n".join(self.rows)']);
    expect(checkLoss(code, update, null, code.replace('def render(self)', 'def render_text(self)')).lost).toEqual([]);
  });

  it('a new import shown where a used one stood is new beside it; one whose name the file no longer uses may go (Java)', () => {
    const code = lines([
      'package app.web;',
      '',
      'import org.springframework.web.bind.annotation.GetMapping;',
      'import org.springframework.web.bind.annotation.RestController;',
      '',
      '@RestController',
      'public class PingController {',
      '    @GetMapping("/ping")',
      '    public String ping() {',
      '        return "pong";',
      '    }',
      '}',
    ]);
    const update = lines(['import org.springframework.web.bind.annotation.DeleteMapping;', '// ... other imports', '', '    // ... existing code ...', '    @DeleteMapping("/ping")', '    public void reset() {', '    }', '}']);
    const good = code
      .replace('import org.springframework.web.bind.annotation.GetMapping;', 'import org.springframework.web.bind.annotation.DeleteMapping;\nimport org.springframework.web.bind.annotation.GetMapping;')
      .replace('        return "pong";\n    }\n', '        return "pong";\n    }\n\n    @DeleteMapping("/ping")\n    public void reset() {\n    }\n');
    const lossy = good.replace('import org.springframework.web.bind.annotation.GetMapping;\n', '');
    expect(judged(code, update, lossy, good)).toEqual([2]);
    // Switched over: no `@GetMapping` is left, so the old import may be replaced.
    const switched = lossy.replace('    @GetMapping("/ping")\n', '    @DeleteMapping("/ping")\n');
    const switchUpdate = lines(['import org.springframework.web.bind.annotation.DeleteMapping;', '// ... other imports', '', '    @DeleteMapping("/ping")', '    public String ping() {', '    // ... existing code ...', '}']);
    expect(checkLoss(code, switchUpdate, null, switched.replace('\n    @DeleteMapping("/ping")\n    public void reset() {\n    }\n', '')).lost).toEqual([]);
  });
});

