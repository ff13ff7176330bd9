// Usage and cost per session, read from each harness's own transcript.
export { type Tokens, type Buckets, tokenTotal, byModel, sumTokens } from "./tokens";
export { type Harness } from "./parse";
export { type UsageFile, type UsageSource, readUsage, emptyUsage, usageFile, usageBuckets } from "./store";
export { type RefreshResult, refreshUsage, isUsageHarness } from "./refresh";
export { DEFAULT_PRICES, priceOf, costOf, type Cost } from "./prices";
export { type UsageSummary, summarize, summaryOf, formatCost, formatTokens } from "./summary";
export { findTranscript, claudeProjectName } from "./transcripts";
export { type ModelPrice, loadPrices, pricesOrDefaults } from "./price-config";
