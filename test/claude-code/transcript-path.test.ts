// projectDirName / transcriptPathFor: Claude Code 2.1.332's encoding of a cwd into a projects/ folder name.
import t from 'tap';
import { projectDirName, transcriptPathFor } from '../../src/claude-code/transcript-path.js';

t.test('every non-alphanumeric character becomes a dash', async (tt) => {
  tt.equal(projectDirName('/tmp/research_.proj/sub dir/x'), '-tmp-research--proj-sub-dir-x');
  tt.equal(projectDirName('/home/ü/Ω'), '-home----', 'non-ASCII letters are replaced too');
  tt.equal(projectDirName('C:\\work\\repo'), 'C--work-repo');
});

t.test('names longer than 200 characters are cut and get a base-36 hash of the original path', async (tt) => {
  const long = `/${'a'.repeat(250)}`;
  const name = projectDirName(long);
  tt.match(name, /^-a{199}-[0-9a-z]+$/);
  // The Java-style hash of the same path computed independently.
  let h = 0;
  for (const ch of long) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  tt.equal(name, `-${'a'.repeat(199)}-${Math.abs(h).toString(36)}`);
  tt.not(projectDirName(`${long}b`), name, 'different long paths get different names');
  tt.equal(projectDirName(`/${'a'.repeat(199)}`).length, 200, 'exactly 200 stays plain');
});

t.test('transcriptPathFor joins config dir, encoded cwd and session id', async (tt) => {
  tt.equal(transcriptPathFor('/cfg', '/tmp/p', 'abc'), '/cfg/projects/-tmp-p/abc.jsonl');
  tt.equal(transcriptPathFor('/cfg/', '/tmp/p', 'abc'), '/cfg/projects/-tmp-p/abc.jsonl');
});
