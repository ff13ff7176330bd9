// A patch or a diff stat coloured the way git colours its own by default:
// headers bold, hunk lines cyan, removed lines red, added lines green. The text
// is already made printable; colour is added around whole lines only.
const SGR = (code: string) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;
const bold = SGR("1");
const cyan = SGR("36");
const red = SGR("31");
const green = SGR("32");

const HEADER = /^(diff --git |index |--- |\+\+\+ |new file mode |deleted file mode |old mode |new mode |similarity index |rename from |rename to |copy from |copy to |Binary files )/;

export function colorPatch(patch: string): string {
  let inHeader = false;
  return patch
    .split("\n")
    .map((line) => {
      if (line.startsWith("diff --git ")) inHeader = true;
      else if (line.startsWith("@@")) inHeader = false;
      if (line === "") return line;
      if (inHeader && HEADER.test(line)) return bold(line);
      if (line.startsWith("@@")) {
        const end = line.indexOf("@@", 2);
        return end > 0 ? cyan(line.slice(0, end + 2)) + line.slice(end + 2) : cyan(line);
      }
      if (line.startsWith("+")) return green(line);
      if (line.startsWith("-")) return red(line);
      return line;
    })
    .join("\n");
}

/** The `+++--` graph at the end of each stat line, green and red. */
export function colorStat(stat: string): string {
  return stat
    .split("\n")
    .map((line) => {
      const m = /^(.*\|\s+\d+ )(\+*)(-*)$/.exec(line);
      return m ? `${m[1]}${m[2] ? green(m[2]) : ""}${m[3] ? red(m[3]) : ""}` : line;
    })
    .join("\n");
}
