export * from "./rows";
export * from "./select";
export * from "./state";
export * from "./names";
export * from "./screen";
export * from "./queue-order";
export * from "./files";
