// Imported once by the CLI entry so every process that writes records also
// appends their timeline events and notifies watchers.
import { installComms } from "./notify";

installComms();
