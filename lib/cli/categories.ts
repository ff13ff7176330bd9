// The order help lists command categories in: the order people work (make
// and look at sessions, talk to them, review and land their work, watch the
// fleet, coordinate, then the rest), with the agents' own declarations last.
// A category not named here (a new family of verbs) is listed before those
// declarations, alphabetically among the others like it.
const ORDER = [
  "Sessions",
  "Lifecycle",
  "Messages",
  "Review",
  "Fleet",
  "Groups",
  "Coordination",
  "Terminals",
  "Machines",
  "Backend and checks",
  "Recovery",
];
const LAST = ["Agent declarations"];

function rank(category: string): [number, string] {
  const known = ORDER.indexOf(category);
  if (known >= 0) return [known, ""];
  const last = LAST.indexOf(category);
  if (last >= 0) return [ORDER.length + 1 + last, ""];
  return [ORDER.length, category];
}

/** Categories in help order. */
export function sortCategories(categories: Iterable<string>): string[] {
  return [...new Set(categories)].sort((a, b) => {
    const [ra, na] = rank(a);
    const [rb, nb] = rank(b);
    return ra - rb || na.localeCompare(nb, "en");
  });
}
