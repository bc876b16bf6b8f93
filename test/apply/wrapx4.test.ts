// Branch wrapx4: existing lines wrapped in a new block and re-indented. Texts other than the cases and
// probes that showed the class (28bo dart01, 26t dart01, 28bs py01, 28br py27, 28bv py02, 28bo tsx02).
import { describe, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';

describe('wrapx4: wrapped lines re-indented', () => {
  it('dart: `child: Card(` wrapped in a new parent is a named argument, not a new definition', () => {
    const head = ['class Tiles extends StatelessWidget {', '  @override', '  Widget build(BuildContext context) {', '    return Column(', '      children: [', '        for (final t in tiles)'];
    const tail = ['      ],', '    );', '  }', '}'];
    const card = ['child: Card(', '  elevation: 2,', '  child: Text(t.label),', '),'];
    const original = lines([...head, '          Padding(', '            padding: const EdgeInsets.all(4),', ...card.map((l) => `            ${l}`), '          ),', ...tail]);
    const wrapped = ['            child: Tooltip(', '              message: t.hint,', ...card.map((l) => `              ${l}`), '            ),', '          ),'];
    const update = lines(['        for (final t in tiles)', '          Padding(', '            padding: const EdgeInsets.all(4),', ...wrapped]);
    mergedEverywhere(original, update, lines([...head, '          Padding(', '            padding: const EdgeInsets.all(4),', ...wrapped, ...tail]));
  });

  it('python: a call over several lines wrapped in a retry loop after a marker and a blank line', () => {
    const head = ['def sync(items, client):', '    done = 0', '    for item in items:', '        if item.skip:', '            continue'];
    const call = ['client.put(', '    item.key,', '    item.body,', ')'];
    const tail = ['        done += 1', '    return done'];
    const original = lines([...head, ...call.map((l) => `        ${l}`), ...tail]);
    const loop = ['        for attempt in range(5):', '            try:', ...call.map((l) => `                ${l}`), '                break', '            except TimeoutError:', '                sleep(attempt)'];
    const update = lines(['# ...', '', ...loop, '        done += 1']);
    mergedEverywhere(original, update, lines([...head, ...loop, ...tail]));
  });

  it('python: a new module constant over a wrapped function keeps two blank lines on both sides', () => {
    const head = ['import time', '', '', 'def first():', '    return 1', '', ''];
    const fn = ['def poll(job):', '    state = job.state()'];
    const update = lines(['POLL_LIMIT = 30', '', '', ...fn, '    for _ in range(POLL_LIMIT):', '        if state == "done":', '            break', '        time.sleep(1)', '        state = job.state()', '    return state']);
    const original = lines([...head, ...fn, '    if state == "done":', '        return state', '    return state']);
    mergedEverywhere(original, update, lines([...head, 'POLL_LIMIT = 30', '', '', ...fn, '    for _ in range(POLL_LIMIT):', '        if state == "done":', '            break', '        time.sleep(1)', '        state = job.state()', '    return state']));
  });

  it('jsx: a list wrapped in a conditional, a marker for its items inside, the closers after it', () => {
    const head = ['export function Menu({ open }) {', '  return (', '    <nav>', '      <Logo />'];
    const items = ['<li>Home</li>', '<li>Blog</li>', '<li>About</li>'];
    const tail = ['      <Footer />', '    </nav>', '  );', '}'];
    const original = lines([...head, '      <ul className="menu">', ...items.map((l) => `        ${l}`), '      </ul>', ...tail]);
    const update = lines(['      <Logo />', '      {open && (', '        <ul className="menu">', '          {/* ... the same items ... */}', '        </ul>', '      )}', '      <Footer />']);
    mergedEverywhere(original, update, lines([...head, '      {open && (', '        <ul className="menu">', ...items.map((l) => `          ${l}`), '        </ul>', '      )}', ...tail]));
  });

  it('control: a marker at the kept lines\' own depth between two wraps keeps them where they are', () => {
    const original = lines(['def run(job):', '    conn = open_db()', '    rows = conn.fetch(job)', '    rows = clean(rows)', '    return publish(rows)']);
    const update = lines(['def run(job):', '    try:', '        conn = open_db()', '    except DbError:', '        return None', '    # ... unchanged ...', '    with tracing("publish"):', '        return publish(rows)']);
    mergedEverywhere(original, update, lines(['def run(job):', '    try:', '        conn = open_db()', '    except DbError:', '        return None', '    rows = conn.fetch(job)', '    rows = clean(rows)', '    with tracing("publish"):', '        return publish(rows)']));
  });
});
