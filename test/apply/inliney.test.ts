// Members of data and literals (docs/apply.md, branch inliney). Revealed by JSON, JavaScript and
// TypeScript cases (ak json02, aj json02, an json01, am js01, ah ts23); the guards are in other
// languages: a Kotlin `listOf(…)` written on one line, laid out by the update with a marker row; a SQL
// column appended after the table's last column, which a marker stands for; a Python dict's closer
// shown without its comma before a marker; and (control) a PHP array member shown with its new comma
// where that text occurs in another array.
import { beforeAll, describe, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { mergedEverywhere } from './judged.js';

const kotlinCode = 'object Modules {\n    val core = listOf("logging", "config", "metrics", "tracing")\n    val ui = listOf("theme")\n}\n';
const kotlinUpdate = 'object Modules {\n    val core = listOf(\n        "logging",\n        // ...\n        "tracing",\n        "health",\n    )\n    // ...\n}\n';
const kotlinExpected = 'object Modules {\n    val core = listOf(\n        "logging",\n        "config",\n        "metrics",\n        "tracing",\n        "health",\n    )\n    val ui = listOf("theme")\n}\n';

const sqlCode = 'CREATE TABLE invoices (\n    id BIGSERIAL PRIMARY KEY,\n    customer_id BIGINT NOT NULL REFERENCES customers(id),\n    total_cents INTEGER NOT NULL,\n    issued_at TIMESTAMPTZ NOT NULL DEFAULT now()\n);\n\nCREATE INDEX invoices_customer_idx ON invoices (customer_id);\n';
const sqlUpdate = 'CREATE TABLE invoices (\n    -- ... existing columns ...\n    paid_at TIMESTAMPTZ\n);\n-- ...\n';
const sqlExpected = 'CREATE TABLE invoices (\n    id BIGSERIAL PRIMARY KEY,\n    customer_id BIGINT NOT NULL REFERENCES customers(id),\n    total_cents INTEGER NOT NULL,\n    issued_at TIMESTAMPTZ NOT NULL DEFAULT now(),\n    paid_at TIMESTAMPTZ\n);\n\nCREATE INDEX invoices_customer_idx ON invoices (customer_id);\n';

const pyCode = 'LOGGING = {\n    "version": 1,\n    "handlers": {\n        "console": {"class": "logging.StreamHandler"},\n    },\n    "root": {"handlers": ["console"], "level": "INFO"},\n}\n';
const pyUpdate = 'LOGGING = {\n    "version": 1,\n    "handlers": {\n        "console": {"class": "logging.StreamHandler"},\n        "file": {"class": "logging.FileHandler", "filename": "app.log"},\n    }\n    # ...\n}\n';
const pyExpected = 'LOGGING = {\n    "version": 1,\n    "handlers": {\n        "console": {"class": "logging.StreamHandler"},\n        "file": {"class": "logging.FileHandler", "filename": "app.log"},\n    },\n    "root": {"handlers": ["console"], "level": "INFO"},\n}\n';

const phpCode = "<?php\n\nreturn [\n    'default' => [\n        'driver' => 'redis',\n        'connection' => 'cache',\n        'prefix' => 'app',\n        'serializer' => 'php'\n    ],\n    'sessions' => [\n        'driver' => 'redis',\n        'connection' => 'sessions',\n        'prefix' => 'app'\n    ],\n];\n";
const phpUpdate = "<?php\n\nreturn [\n    // ...\n    'sessions' => [\n        'driver' => 'redis',\n        'connection' => 'sessions',\n        'prefix' => 'app',\n        'lock_seconds' => 10\n    ],\n];\n";
const phpExpected = "<?php\n\nreturn [\n    'default' => [\n        'driver' => 'redis',\n        'connection' => 'cache',\n        'prefix' => 'app',\n        'serializer' => 'php'\n    ],\n    'sessions' => [\n        'driver' => 'redis',\n        'connection' => 'sessions',\n        'prefix' => 'app',\n        'lock_seconds' => 10\n    ],\n];\n";

describe('members of data and literals', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('a one-line list laid out one element a row, with a marker row for the elements between', () => {
    mergedEverywhere(kotlinCode, kotlinUpdate, kotlinExpected);
  });

  it('a member appended after a last member the marker stands for takes the comma', () => {
    mergedEverywhere(sqlCode, sqlUpdate, sqlExpected);
  });

  it('a closer shown without its comma right before a marker keeps it', () => {
    mergedEverywhere(pyCode, pyUpdate, pyExpected);
  });

  it('a member shown with its new comma, where that text occurs elsewhere, is its edit', () => {
    mergedEverywhere(phpCode, phpUpdate, phpExpected);
  });
});
