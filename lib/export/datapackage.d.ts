/**
 * Minimal typings for the `datapackage` validator (Frictionless Data's reference library, a dev dependency; it ships
 * none): what the tests use.
 */
declare module 'datapackage' {
  export interface Resource {
    name: string;
    valid: boolean;
    errors: Error[];
  }
  export class Package {
    static load(
      descriptor: string | Record<string, unknown>,
      options?: { basePath?: string; strict?: boolean },
    ): Promise<Package>;
    readonly valid: boolean;
    readonly errors: Error[];
    readonly resources: Resource[];
  }
}
