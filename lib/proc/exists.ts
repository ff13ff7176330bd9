/** Does the pid name a process at all (signal 0 starts nothing)? EPERM: it does, someone else's. */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
