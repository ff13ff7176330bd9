// Imported once by the CLI entry so every process that writes records also
// appends their timeline events, notifies watchers and sends the
// notifications a person configured (lib/attention).
import { installComms } from "./notify";
import { installAttention } from "../attention/observer";

installComms();
installAttention();
