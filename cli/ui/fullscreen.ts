// Full-screen Ink views draw on the terminal's alternate screen and give the user's scrollback back,
// cursor included, however the view ends (q, Ctrl-C, an exception).
const ENTER = '\x1b[?1049h\x1b[H';
const LEAVE = '\x1b[?1049l';

export async function onAlternateScreen<T>(stdout: NodeJS.WriteStream, run: () => Promise<T>): Promise<T> {
  stdout.write(ENTER);
  const leave = () => stdout.write(LEAVE);
  process.once('exit', leave);
  try {
    return await run();
  } finally {
    process.removeListener('exit', leave);
    leave();
  }
}
