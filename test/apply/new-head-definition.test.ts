// A definition the update shows under a head the original does not have (a new list item, class or
// block) is new there: the syntax pass does not swap it into a same-named original elsewhere
// (place.ts underNewHead). Revealed by aj yaml02 (a new GitHub Actions step whose `run:` replaced the
// previous step's `run:`, found after the held-out round, so it does not count there); the guard is
// an Ansible playbook: a new task's `command:` must not replace the earlier task's `command:`.
import { beforeAll, describe, expect, it } from 'vitest';
import { mergedEverywhere } from './judged.js';
import { ensureGrammar } from '../../src/apply/syntax/grammars.js';

const code = "- hosts: app\n  become: true\n  tasks:\n    - name: Install gems\n      shell: bundle install --deployment\n      args:\n        chdir: /srv/app\n    - name: Migrate database\n      command: bundle exec rake db:migrate\n      environment:\n        RAILS_ENV: production\n    - name: Precompile assets\n      command: bundle exec rake assets:precompile\n      environment:\n        RAILS_ENV: production\n    - name: Restart puma\n      systemd:\n        name: puma\n        state: restarted\n";
const update = "  tasks:\n    # ...\n    - name: Precompile assets\n      command: bundle exec rake assets:precompile\n      environment:\n        RAILS_ENV: production\n    - name: Warm the cache\n      command: bundle exec rake cache:warm\n      environment:\n        RAILS_ENV: production\n    - name: Restart puma\n    # ...\n";
const expected = "- hosts: app\n  become: true\n  tasks:\n    - name: Install gems\n      shell: bundle install --deployment\n      args:\n        chdir: /srv/app\n    - name: Migrate database\n      command: bundle exec rake db:migrate\n      environment:\n        RAILS_ENV: production\n    - name: Precompile assets\n      command: bundle exec rake assets:precompile\n      environment:\n        RAILS_ENV: production\n    - name: Warm the cache\n      command: bundle exec rake cache:warm\n      environment:\n        RAILS_ENV: production\n    - name: Restart puma\n      systemd:\n        name: puma\n        state: restarted\n";

describe('a definition under a new head', () => {
  // The syntax pass reads the file with the YAML grammar: without it the line merge alone runs.
  beforeAll(async () => {
    expect(await ensureGrammar('yaml')).not.toBeNull();
  });

  it('is new in that block, not an edit of the same-named key of another item', () => mergedEverywhere(code, update, expected));
});
