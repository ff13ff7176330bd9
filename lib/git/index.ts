export * from "./main-root";
export * from "./ops";
