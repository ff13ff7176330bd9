// The terminal's size, following resizes (the frame reflows on the next render).
import { useStdout } from "ink";
import { useEffect, useState } from "react";

export interface Size {
  columns: number;
  rows: number;
}

export function useTerminalSize(fixed?: Size): Size {
  const { stdout } = useStdout();
  const read = (): Size => fixed ?? { columns: stdout.columns || 80, rows: stdout.rows || 24 };
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed) return;
    const onResize = () => setSize(read());
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout, fixed]);
  return size;
}
