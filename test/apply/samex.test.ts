// One of many near-identical blocks (branch samex): the edit goes into one of several same-shaped
// switch cases, services or resources, and the lines it adds copy a line another block has once.
// The update's own context says which block it is: the shown case's head, the head shown above a
// marker. Held-out bb c01 and ba yaml01 were lossy on main in this shape.
import { describe, it } from 'vitest';
import { mergedEverywhere } from './judged.js';

const cases: Array<{ name: string; code: string; update: string; expected: string }> = [
  {
    // The new case's `throw` is the default's line: pinned there, main read the cases between as replaced (OP_PRINT of held-out bb c01 was lost).
    name: "a guard added to one case and a new case copying it, the guard's line one the default has once, go into the shown case",
    code: "export function evaluate(op: Op, stack: number[]): number {\n  let a: number;\n  let b: number;\n  switch (op) {\n    case Op.Add:\n      b = stack.pop()!;\n      a = stack.pop()!;\n      return a + b;\n    case Op.Div:\n      b = stack.pop()!;\n      a = stack.pop()!;\n      return a / b;\n    case Op.Neg:\n      a = stack.pop()!;\n      return -a;\n    default:\n      throw new RangeError(`unknown op ${op}`);\n  }\n}\n",
    update: "    case Op.Div:\n      b = stack.pop()!;\n      a = stack.pop()!;\n      if (b === 0) {\n        throw new RangeError(`unknown op ${op}`);\n      }\n      return a / b;\n    case Op.Mod:\n      b = stack.pop()!;\n      a = stack.pop()!;\n      if (b === 0) {\n        throw new RangeError(`unknown op ${op}`);\n      }\n      return a % b;\n    // ... other cases ...\n",
    expected: "export function evaluate(op: Op, stack: number[]): number {\n  let a: number;\n  let b: number;\n  switch (op) {\n    case Op.Add:\n      b = stack.pop()!;\n      a = stack.pop()!;\n      return a + b;\n    case Op.Div:\n      b = stack.pop()!;\n      a = stack.pop()!;\n      if (b === 0) {\n        throw new RangeError(`unknown op ${op}`);\n      }\n      return a / b;\n    case Op.Mod:\n      b = stack.pop()!;\n      a = stack.pop()!;\n      if (b === 0) {\n        throw new RangeError(`unknown op ${op}`);\n      }\n      return a % b;\n    case Op.Neg:\n      a = stack.pop()!;\n      return -a;\n    default:\n      throw new RangeError(`unknown op ${op}`);\n  }\n}\n",
  },
  {
    // The healthcheck's keys are the scheduler's once: main's syntax pass took them for that service's in large (held-out ba yaml01 lost the build job's upload step).
    name: "a service shown with its keys, a marker under `environment:`, then a healthcheck copied from another service: the copy is new in the shown service",
    code: "services:\n  api:\n    image: acme/api:2.3\n    restart: unless-stopped\n    environment:\n      LOG_LEVEL: info\n      DB_HOST: db\n    depends_on:\n      - db\n\n  worker:\n    image: acme/worker:2.3\n    restart: unless-stopped\n    environment:\n      LOG_LEVEL: info\n      DB_HOST: db\n    depends_on:\n      - db\n\n  scheduler:\n    image: acme/scheduler:2.3\n    restart: unless-stopped\n    environment:\n      LOG_LEVEL: info\n      DB_HOST: db\n    depends_on:\n      - db\n    healthcheck:\n      test: [\"CMD\", \"scheduler\", \"ping\"]\n      interval: 30s\n      retries: 3\n\n  db:\n    image: postgres:16\n",
    update: "  worker:\n    image: acme/worker:2.4\n    restart: unless-stopped\n    environment:\n      # ... unchanged ...\n      DB_HOST: db\n      QUEUE_CONCURRENCY: \"8\"\n    depends_on:\n      - db\n    healthcheck:\n      test: [\"CMD\", \"worker\", \"ping\"]\n      interval: 30s\n      retries: 3\n",
    expected: "services:\n  api:\n    image: acme/api:2.3\n    restart: unless-stopped\n    environment:\n      LOG_LEVEL: info\n      DB_HOST: db\n    depends_on:\n      - db\n\n  worker:\n    image: acme/worker:2.4\n    restart: unless-stopped\n    environment:\n      LOG_LEVEL: info\n      DB_HOST: db\n      QUEUE_CONCURRENCY: \"8\"\n    depends_on:\n      - db\n    healthcheck:\n      test: [\"CMD\", \"worker\", \"ping\"]\n      interval: 30s\n      retries: 3\n\n  scheduler:\n    image: acme/scheduler:2.3\n    restart: unless-stopped\n    environment:\n      LOG_LEVEL: info\n      DB_HOST: db\n    depends_on:\n      - db\n    healthcheck:\n      test: [\"CMD\", \"scheduler\", \"ping\"]\n      interval: 30s\n      retries: 3\n\n  db:\n    image: postgres:16\n",
  },
];

describe('one of many near-identical blocks', () => {
  for (const c of cases) it(c.name, () => mergedEverywhere(c.code, c.update, c.expected));
});
