// The top line: the project, the counts by status (`3 working · 1 asking`),
// and what narrows the list (filter, group, order, archived).
import { Text } from "ink";
import { memo } from "react";
import { fitCell } from "../../model/columns";
import { useColor } from "../theme";

export interface HeaderProps {
  project: string;
  counts: string;
  total: number;
  shown: number;
  filter: string;
  group: string | null;
  order: "triage" | "plain";
  archived: boolean;
  width: number;
}

export const Header = memo(function Header({ project, counts, total, shown, filter, group, order, archived, width }: HeaderProps) {
  const color = useColor();
  const narrowed = [
    filter ? `/${filter}` : "",
    group !== null ? `group ${group || "(none)"}` : "",
    order === "plain" ? "plain order" : "",
    archived ? "+archived" : "",
    shown !== total ? `${shown} of ${total}` : `${total} session${total === 1 ? "" : "s"}`,
  ].filter(Boolean);
  const left = `spex board · ${project} · ${counts || "no sessions"}`;
  const right = narrowed.join(" · ");
  const gap = Math.max(1, width - left.length - right.length);
  return (
    <Text wrap="truncate" bold={color}>
      {fitCell(left + " ".repeat(gap) + right, width)}
    </Text>
  );
});
