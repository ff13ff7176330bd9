// The ssh test fleet's last resort, run detached (its own session): it reads
// its stdin, a pipe from the test process, and when that ends without the
// word "done" (the test process was killed before its teardown, as a
// process-group kill or a timeout does) it sweeps the fleet, so no sshd
// connection, connection master or tmux server outlives the run.
import { type SweepTarget, sweep } from "./ssh-sweep";

const target = JSON.parse(process.argv[2]!) as SweepTarget;
let said = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  said += chunk;
});
process.stdin.on("end", () => {
  if (!said.includes("done")) sweep(target);
  process.exit(0);
});
