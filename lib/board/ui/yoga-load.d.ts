// yoga-layout's "./load" entry, for TypeScript's "node" resolution (which does not read package exports).
declare module "yoga-layout/load" {
  export * from "yoga-layout/dist/src/load";
}
