// `spex doctor`'s logout check (issue 27 item 1): whether logging out would end
// the fleet, and the command that keeps it (quoted: a person pastes it).
import { userInfo } from "node:os";
import { shellQuote } from "../tmux/quote";
import { type LogindFacts, logoutKills, readLogind } from "./logind";

export interface LogoutCheck {
  name: string;
  ok: boolean;
  required: boolean;
  detail: string;
  code?: string;
}

export const LOGOUT_KILLS = "logout_kills_fleet";

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? "";
  }
}

/** The check from logind's facts (undefined: no logind here, nothing ends the fleet at logout). */
export function logoutCheck(facts: LogindFacts | undefined, user = userName()): LogoutCheck {
  const name = "survives logout";
  if (!facts) return { name, ok: true, required: false, detail: "no systemd-logind answers here: a logout does not end tmux servers" };
  if (!logoutKills(facts)) {
    const why = facts.linger ? "this user lingers" : "logind keeps a user's processes at logout (KillUserProcesses=no)";
    return { name, ok: true, required: false, detail: `yes: ${why}` };
  }
  const fix = user ? `loginctl enable-linger ${shellQuote(user)}` : 'loginctl enable-linger "$USER"';
  return {
    name,
    ok: false,
    required: false,
    code: LOGOUT_KILLS,
    detail: `no: logind kills a user's processes at logout (KillUserProcesses=yes) and this user does not linger, so logging out ends every session's agent and tmux server; keep them with: ${fix}`,
  };
}

export function readLogoutCheck(): LogoutCheck {
  return logoutCheck(readLogind());
}
