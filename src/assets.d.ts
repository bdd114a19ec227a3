/** Files imported `with { type: "file" }`: Bun gives their path (embedded in the executable). */
declare module "*.bin" {
  const path: string;
  export default path;
}
