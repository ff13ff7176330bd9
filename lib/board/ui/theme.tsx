// Colour on or off for the whole screen (NO_COLOR, --no-color, TERM=dumb),
// and the one place a status tone becomes Ink's colour props.
import { createContext, useContext } from "react";
import type { StatusTone } from "../../cli/session-table";

export const ColorContext = createContext(true);

export function useColor(): boolean {
  return useContext(ColorContext);
}

export interface ToneProps {
  color?: string;
  dimColor?: boolean;
}

/** Ink props for a tone; none at all without colour. */
export function toneProps(tone: StatusTone | undefined, color: boolean): ToneProps {
  if (!color || !tone || tone === "plain") return {};
  if (tone === "dim") return { dimColor: true };
  return { color: tone };
}
