// Repeated anchors: an edit in one of several blocks whose last lines are the same (SQL tables ending
// `created_at`, `updated_at`; sbt projects whose Seqs end in the same test dependency), the update
// appending a member after the shown tail, so its last line differs from the original's only by its
// separator (branch repeatx; held-out aw sql01, ax scala38, the latter lossy on main).
import { describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';
import { mergedEverywhere } from './judged.js';

const cases: Array<{ name: string; code: string; update: string; expected: string }> = [
  {
    // `updated_at …,` is the first table's line as it stands and the second's with its comma: placed in the first by it, the marker read as standing for the second table and the edit's old line kept (main).
    name: "a column appended to the one of two tables whose last lines the other shares goes to the shown table",
    code: "CREATE TABLE authors (\n    id         INTEGER PRIMARY KEY,\n    name       TEXT NOT NULL,\n    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,\n    updated_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,\n    UNIQUE (name)\n);\n\nCREATE TABLE books (\n    id         INTEGER PRIMARY KEY,\n    author_id  INTEGER NOT NULL REFERENCES authors (id),\n    title      TEXT NOT NULL,\n    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,\n    updated_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP\n);\n\nCREATE INDEX books_author_idx ON books (author_id);\n",
    update: "CREATE TABLE books (\n    -- ...\n    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,\n    updated_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,\n    isbn       TEXT\n);\n\n-- ...\n",
    expected: "CREATE TABLE authors (\n    id         INTEGER PRIMARY KEY,\n    name       TEXT NOT NULL,\n    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,\n    updated_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,\n    UNIQUE (name)\n);\n\nCREATE TABLE books (\n    id         INTEGER PRIMARY KEY,\n    author_id  INTEGER NOT NULL REFERENCES authors (id),\n    title      TEXT NOT NULL,\n    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,\n    updated_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,\n    isbn       TEXT\n);\n\nCREATE INDEX books_author_idx ON books (author_id);\n",
  },
  {
    // The appended lines look like the Seq's earlier lines (`http4s-ember-client`, `http4s-ember-server`): main anchored the hunk on that edit and had the no-loss pass put the line back.
    name: "deps appended after the last of two identical Seq tails, under an inline marker, go after it and nothing is read as their edit",
    code: "lazy val model = (project in file(\"model\"))\n  .settings(\n    libraryDependencies ++= Seq(\n      \"io.circe\" %% \"circe-core\" % \"0.14.6\",\n      \"org.scalameta\" %% \"munit\" % \"0.7.29\" % Test\n    )\n  )\n\nlazy val web = (project in file(\"web\"))\n  .dependsOn(model)\n  .settings(\n    libraryDependencies ++= Seq(\n      \"com.softwaremill.sttp.tapir\" %% \"tapir-core\" % tapirVersion,\n      \"com.softwaremill.sttp.tapir\" %% \"tapir-http4s-server\" % tapirVersion,\n      \"com.softwaremill.sttp.tapir\" %% \"tapir-json-circe\" % tapirVersion,\n      \"org.http4s\" %% \"http4s-circe\" % \"0.23.24\",\n      \"org.http4s\" %% \"http4s-ember-server\" % \"0.23.24\",\n      \"org.scalameta\" %% \"munit\" % \"0.7.29\" % Test\n    )\n  )\n",
    update: "lazy val web = (project in file(\"web\"))\n  // ...\n    libraryDependencies ++= Seq(\n      /* ... existing deps ... */\n      \"org.scalameta\" %% \"munit\" % \"0.7.29\" % Test,\n      \"org.http4s\" %% \"http4s-ember-client\" % \"0.23.24\" % Test,\n      \"org.http4s\" %% \"http4s-circe-testing\" % \"0.23.24\" % Test\n    )\n  )",
    expected: "lazy val model = (project in file(\"model\"))\n  .settings(\n    libraryDependencies ++= Seq(\n      \"io.circe\" %% \"circe-core\" % \"0.14.6\",\n      \"org.scalameta\" %% \"munit\" % \"0.7.29\" % Test\n    )\n  )\n\nlazy val web = (project in file(\"web\"))\n  .dependsOn(model)\n  .settings(\n    libraryDependencies ++= Seq(\n      \"com.softwaremill.sttp.tapir\" %% \"tapir-core\" % tapirVersion,\n      \"com.softwaremill.sttp.tapir\" %% \"tapir-http4s-server\" % tapirVersion,\n      \"com.softwaremill.sttp.tapir\" %% \"tapir-json-circe\" % tapirVersion,\n      \"org.http4s\" %% \"http4s-circe\" % \"0.23.24\",\n      \"org.http4s\" %% \"http4s-ember-server\" % \"0.23.24\",\n      \"org.scalameta\" %% \"munit\" % \"0.7.29\" % Test,\n      \"org.http4s\" %% \"http4s-ember-client\" % \"0.23.24\" % Test,\n      \"org.http4s\" %% \"http4s-circe-testing\" % \"0.23.24\" % Test\n    )\n  )\n",
  },
];

describe('an append after a tail several blocks share', () => {
  for (const c of cases) {
    it(c.name, () => {
      mergedEverywhere(c.code, c.update, c.expected);
      // Placed right, not put right afterwards by the no-loss pass.
      for (const mode of ['fast', 'large'] as const) expect(mergeApply({ code: c.code, update: c.update, instruction: null }, mode).report.restored, mode).toEqual([]);
    });
  }
});
