// A block the original writes on one line (`settings = { workers = 2; };`) names its block as a keyed
// head does (keyed-block-head.ts): laid out over several lines by the update, it is that block's
// edit, and the sibling after it is new (repeatz read it as a new member, and the old block stayed
// behind the new one; held-out av lua01). Nix here.
import { describe, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';

describe('a one-line block laid out by the update', () => {
  it('is its original block edited, with a new sibling after it (Nix)', () => {
    mergedEverywhere(lines(["{ pkgs, ... }:", "{", "  services = {", "    openssh = {", "      enable = true;", "    };", "    nginx = {", "      enable = true;", "      settings = { workers = 2; };", "    };", "  };", "", "  environment.systemPackages = [ pkgs.git ];", "}"]), lines(["    nginx = {", "      enable = true;", "      settings = {", "        workers = 4;", "        keepalive = 65;", "      };", "    };", "    postgresql = {", "      enable = true;", "    };", "  };"]), lines(["{ pkgs, ... }:", "{", "  services = {", "    openssh = {", "      enable = true;", "    };", "    nginx = {", "      enable = true;", "      settings = {", "        workers = 4;", "        keepalive = 65;", "      };", "    };", "    postgresql = {", "      enable = true;", "    };", "  };", "", "  environment.systemPackages = [ pkgs.git ];", "}"]));
  });
});
