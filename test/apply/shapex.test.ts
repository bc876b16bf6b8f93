// New code written in the shape of an aligned original line (branch shapex): a new resource's
// `bucket = aws_s3_bucket.assets.id` beside a public access block that writes the same line aligned
// (`bucket                  = …`). kept-alignment.ts restores the original's spacing to a line the
// update shows with its alignment collapsed, as context; it must not do so to a copy of that line
// in new code, which the output holds beside the original line itself (cd hcl14, bf tf27).
import { describe, it } from 'vitest';
import { BOTH_MODES, mergedEverywhere } from './judged.js';

function exact(code: string, update: string, instruction: string | null, expected: string): void {
  mergedEverywhere(code, update, expected, instruction, BOTH_MODES);
}

const vpc = 'resource "aws_vpc" "main" {\n  cidr_block           = "10.20.0.0/16"\n  enable_dns_hostnames = true\n}\n\n';
const subnet = (name: string, cidr: string, pub: string): string =>
  `resource "aws_subnet" "${name}" {\n  vpc_id                  = aws_vpc.main.id\n  cidr_block              = "${cidr}"\n  map_public_ip_on_launch = ${pub}\n}\n`;

describe('new code copying an aligned line keeps its own spacing (shapex)', () => {
  it('a new Terraform resource whose only line copies the subnets\' aligned vpc_id line', () => {
    const code = vpc + subnet('public_a', '10.20.1.0/24', 'true') + '\n' + subnet('private_a', '10.20.11.0/24', 'false');
    const update =
      'resource "aws_vpc" "main" {\n  # ...\n}\n\nresource "aws_internet_gateway" "main" {\n  vpc_id = aws_vpc.main.id\n}\n\nresource "aws_subnet" "public_a" {\n  # ...\n}\n# ... rest unchanged\n';
    const expected =
      vpc + 'resource "aws_internet_gateway" "main" {\n  vpc_id = aws_vpc.main.id\n}\n\n' + subnet('public_a', '10.20.1.0/24', 'true') + '\n' + subnet('private_a', '10.20.11.0/24', 'false');
    exact(code, update, null, expected);
  });

  it('a Cargo dev-dependency copying an aligned dependency line', () => {
    const deps =
      '[dependencies]\nanyhow     = "1"\nserde      = { version = "1", features = ["derive"] }\nserde_json = "1"\ntokio      = { version = "1", features = ["rt-multi-thread", "macros"] }\ntracing    = "0.1"\n\n';
    const tail = '[profile.release]\nlto = true\ncodegen-units = 1\n';
    const code = '[package]\nname = "ledger-sync"\nversion = "0.4.2"\nedition = "2021"\n\n' + deps + tail;
    const dev = '[dev-dependencies]\ntokio = { version = "1", features = ["rt-multi-thread", "macros"] }\nwiremock = "0.6"\n\n';
    const update = '[dependencies]\n# ... existing dependencies ...\ntracing    = "0.1"\n\n' + dev + '[profile.release]\n# ...\n';
    exact(code, update, 'add tokio and wiremock as dev-dependencies', code.replace(tail, dev + tail));
  });

  it('a collapsed copy of the original line itself, shown as context, still gets the original spacing', () => {
    const code = vpc + subnet('public_a', '10.20.1.0/24', 'true');
    const update = 'resource "aws_subnet" "public_a" {\n  vpc_id = aws_vpc.main.id\n  cidr_block              = "10.20.2.0/24"\n  map_public_ip_on_launch = true\n}\n';
    exact(code, update, null, vpc + subnet('public_a', '10.20.2.0/24', 'true'));
  });
});
