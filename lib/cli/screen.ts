// A screen printed for a person: plain screens with every control made
// visible, styled ones keeping only their colour sequences.
import type { Writable } from "node:stream";
import { printable, printableStyled } from "./output";

export function writeScreen(out: Writable, screen: string, styled: boolean): void {
  if (screen === "") return;
  out.write((styled ? printableStyled(screen) : printable(screen)) + "\n");
}
