export * from "./main-root";
export * from "./ops";
export * from "./main-branch";
