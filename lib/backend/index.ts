// The backend (DESIGN.md §5 step 2, docs/backend.md): `spex serve`, the keyed
// create API, the event stream and dashboard, and the CLI's authority probe.
export { type ServeOptions, type RunningBackend, startBackend } from "./server";
export { type EndpointRecord, backendPaths, readEndpoint, readToken, readPort, endpointAlive, writeEndpoint, removeEndpoint, tokenFor } from "./endpoint";
export { type RunningDashboard, dashboardFor, dashboardUrl, findRunning, requireRunning } from "./running";
export { type Opened, openUrl } from "./open";
export { type Authority, type AuthorityTarget, type InstanceIdentity, type Proving, AUTHORITY_BUDGET_MS, decideAuthority, probeInstance, proveListener, onlyConnectionRefused } from "./authority";
export { instanceProof } from "./proof";
export { type RemoteCreate, type AuthorityCreateInput, createRemote, createWithAuthority } from "./client";
export { IDEMPOTENCY_KEY, checkIdempotencyKey } from "./keyed";
