// Definition extraction per language (src/apply/syntax/definitions.ts, sql.ts): kind, name, line
// range and enclosing definition, written out by hand for a small file in each language.
import { beforeAll, describe, expect, it } from 'vitest';
import { extractDefinitions, type Definition } from '../../src/apply/syntax/definitions.js';
import { detectLanguages } from '../../src/apply/syntax/detect.js';
import { ensureGrammar, LANGUAGES, loadedParser, type LanguageId } from '../../src/apply/syntax/grammars.js';
import { sqlDefinitions } from '../../src/apply/syntax/sql.js';

/** "kind name start-end <parent name>" per definition (rows 1-based). */
function describeDefs(defs: Definition[]): string[] {
  return defs.map((d) => `${d.kind} ${d.name} ${d.start + 1}-${d.end + 1}${d.parent >= 0 ? ` <${defs[d.parent]!.name}` : ''}`);
}

function defsOf(lang: LanguageId, src: string): string[] {
  const tree = loadedParser(lang)!.parse(src)!;
  expect(tree.rootNode.hasError).toBe(false);
  const out = describeDefs(extractDefinitions(tree, lang, src));
  tree.delete();
  return out;
}

const CASES: Array<[LanguageId, string, string[]]> = [
  ['typescript', `import { x } from './x';

export interface Options {
  depth: number;
}

export class Store {
  get(key: string): number {
    return 1;
  }
}

const helper = (a: number) => a + 1;

app.get('/users/:id', (req, res) => {
  res.send(req.params.id);
});
`, ['interface Options 3-5', 'class Store 7-11', 'method get 8-10 <Store', 'function helper 13-13', "route app.get '/users/:id' 15-17"]],
  ['javascript', `function a() {
  return 1;
}

describe('store', () => {
  it('gets', () => {
    expect(a()).toBe(1);
  });
});

module.exports = { a };
`, ['function a 1-3', "test describe 'store' 5-9", "test it 'gets' 6-8 <describe 'store'"]],
  ['tsx', `export function Panel({ title }: { title: string }) {
  return <div>{title}</div>;
}
`, ['function Panel 1-3']],
  ['python', `import os

class Inventory:
    def __init__(self):
        self.items = []

    @property
    def size(self):
        return len(self.items)

def load(path):
    return Inventory()
`, ['class Inventory 3-9', 'method __init__ 4-5 <Inventory', 'method size 7-9 <Inventory', 'function load 11-12']],
  ['go', `package main

type Server struct {
	addr string
}

func (s *Server) Start() error {
	return nil
}

func main() {
}
`, ['struct Server 3-5', 'method Server.Start 7-9', 'function main 11-12']],
  ['rust', `struct Parser {
    pos: usize,
}

impl Parser {
    fn next(&mut self) -> usize {
        self.pos
    }
}

impl Default for Parser {
    fn default() -> Self { Parser { pos: 0 } }
}

enum Token { A, B }
`, ['struct Parser 1-3', 'impl Parser 5-9', 'method next 6-8 <Parser', 'impl Default for Parser 11-13', 'method default 12-12 <Default for Parser', 'enum Token 15-15']],
  ['java', `package lib;

public class Library {
    private int n;

    public Library() {
        n = 0;
    }

    @Override
    public String toString() {
        return "x";
    }
}
`, ['class Library 3-14', 'method Library 6-8 <Library', 'method toString 10-13 <Library']],
  ['c', `#include <stdio.h>

struct buf {
    int n;
};

static int *make(int n) {
    return 0;
}
`, ['struct buf 3-5', 'function make 7-9']],
  ['cpp', `namespace io {
class Buffer {
public:
    int size() const { return 1; }
};
int Buffer::grow(int n) { return n; }
}
`, ['module io 1-7', 'class Buffer 2-5 <io', 'method size 4-4 <Buffer', 'function Buffer::grow 6-6 <io']],
  ['csharp', `using System;

namespace Bank
{
    public class Account
    {
        public decimal Balance { get; set; }

        public void Deposit(decimal amount)
        {
            Balance += amount;
        }
    }
}
`, ['module Bank 3-14', 'class Account 5-13 <Bank', 'property Balance 7-7 <Account', 'method Deposit 9-12 <Account']],
  ['ruby', `module Shop
  class Cart
    def total
      1
    end

    def self.empty
      new
    end
  end
end
`, ['module Shop 1-11', 'class Cart 2-10 <Shop', 'method total 3-5 <Cart', 'method self.empty 7-9 <Cart']],
  ['php', `<?php
class Users {
    public function find($id) {
        return null;
    }
}

function helper() {}
`, ['class Users 2-6', 'method find 3-5 <Users', 'function helper 8-8']],
  ['kotlin', `package sched

class Scheduler(val n: Int) {
    fun run(): Int {
        return n
    }
}

fun main() {}
`, ['class Scheduler 3-7', 'method run 4-6 <Scheduler', 'function main 9-9']],
  ['swift', `import Foundation

struct Settings {
    var theme: String

    func describe() -> String {
        return theme
    }
}

extension Settings {
    func reset() {}
}
`, ['struct Settings 3-9', 'method describe 6-8 <Settings', 'impl Settings 11-13', 'method reset 12-12 <Settings']],
  ['css', `.btn, .link > a {
  color: red;
}

@media (max-width: 600px) {
  .btn {
    color: blue;
  }
}
`, ['rule .btn, .link > a 1-3', 'at-rule @media (max-width: 600px) 5-9', 'rule .btn 6-8 <@media (max-width: 600px)']],
  ['bash', `#!/bin/bash
set -e

deploy() {
  echo "deploying"
}

function cleanup {
  rm -rf /tmp/x
}
`, ['function deploy 4-6', 'function cleanup 8-10']],
  ['yaml', `jobs:
  build:
    runs-on: ubuntu
`, ['key jobs 1-3', 'key build 2-3 <jobs', 'key runs-on 3-3 <build']],
];

describe('syntax: definitions per language', () => {
  beforeAll(async () => {
    for (const lang of LANGUAGES) expect(await ensureGrammar(lang), `${lang} grammar loads`).not.toBeNull();
  });

  it('covers at least 12 languages with a grammar', () => {
    expect(new Set(CASES.map(([l]) => l)).size).toBeGreaterThanOrEqual(12);
  });

  for (const [lang, src, want] of CASES) {
    it(`${lang}: kinds, names, line ranges and parents`, () => {
      expect(defsOf(lang, src)).toEqual(want);
    });
  }

  it('sql: CREATE statements to their `;`, across dollar-quoted bodies and BEGIN … END', () => {
    const src = `-- schema
CREATE TABLE users (
    id SERIAL PRIMARY KEY
);

CREATE OR REPLACE FUNCTION touch() RETURNS trigger AS $$
BEGIN
    NEW.at = now(); -- not the end
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER t AFTER INSERT ON users
BEGIN
    SELECT 1;
END;
SELECT * FROM users;
`;
    expect(describeDefs(sqlDefinitions(src))).toEqual(['sql TABLE users 2-4', 'sql FUNCTION touch 6-11', 'sql TRIGGER t 13-16']);
  });

  it('detects the language of the held-out samples from their text', () => {
    const cases: Array<[string, string]> = [
      ['typescript', 'export interface A { x: number }\nexport function f(a: string): void {}\n'],
      ['python', 'def f(x):\n    return None\n'],
      ['go', 'package main\n\nfunc main() {\n}\n'],
      ['rust', 'fn main() {\n    let mut x = 1;\n}\n'],
      ['php', '<?php\nfunction f() {}\n'],
      ['bash', '#!/bin/sh\necho hi\n'],
      ['sql', 'CREATE TABLE t (id int);\n'],
    ];
    for (const [lang, code] of cases) expect(detectLanguages(code)[0]).toBe(lang);
  });
});
