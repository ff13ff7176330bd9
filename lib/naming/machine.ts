// Machine names and how a session on one machine is named on another
// (`<machine>:<session id>`, docs/machines.md). Kept down here because both the
// machine list and the message envelope need them, and comms sits below machines.

/** A machine name: letters, digits, `.`, `_`, `-`; never a `:` (the selector separator) or a `,` (the list separator). */
export const MACHINE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

export function isMachineName(text: string): boolean {
  return MACHINE_NAME.test(text);
}

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The name a session of `machine` goes by on other machines: `<machine>:<full id>`. */
export function remoteSessionName(machine: string, id: string): string {
  return `${machine}:${id}`;
}

/** `<machine>:<full id>` back into its parts; undefined for any other text. */
export function parseRemoteSessionName(text: string): { machine: string; id: string } | undefined {
  const colon = text.indexOf(":");
  if (colon < 0) return undefined;
  const machine = text.slice(0, colon);
  const id = text.slice(colon + 1);
  return isMachineName(machine) && SESSION_ID.test(id) ? { machine, id } : undefined;
}

/** `NAME:SEL` split at its first colon when NAME reads as a machine name; undefined otherwise. */
export function splitMachineSelector(text: string): { machine: string; selector: string } | undefined {
  const colon = text.indexOf(":");
  if (colon <= 0) return undefined;
  const machine = text.slice(0, colon);
  return isMachineName(machine) ? { machine, selector: text.slice(colon + 1) } : undefined;
}
