import { expect, test } from "bun:test";
import { join } from "node:path";
import { onnx } from "onnx-proto";
import { MODEL_DIR } from "../../../src/search/model-files.ts";

// onnxruntime <= 1.24.4's int8 AMX GEMM kernel miscomputes outputs whose width N has N % 32 in
// 17..31 (data/models/README.md). This machine may have no AMX to show it; the shipped graph's
// shape shows it on any CPU: every int8 matmul's output width is a multiple of 32.
test("every int8 weight the shipped graph multiplies by is a multiple of 32 wide", async () => {
  const model = onnx.ModelProto.decode(await Bun.file(join(MODEL_DIR, "model.onnx")).bytes());
  const graph = model.graph;
  if (!graph?.node || !graph.initializer) throw new Error("model.onnx has no graph");
  const dims = new Map(graph.initializer.map((i) => [i.name ?? "", (i.dims ?? []).map(Number)]));
  const widths = graph.node
    .filter((n) => n.opType === "MatMulInteger" || n.opType === "QAttention")
    .map((n) => {
      const weight = n.input?.[1] ?? "";
      const shape = dims.get(weight);
      if (shape?.length !== 2)
        throw new Error(`${n.name}: weight ${weight} is not a 2-D initializer`);
      return { weight, width: shape[1] ?? 0 };
    });
  // 6 layers x (QAttention's qkv; MatMulInteger: attention out, feed-forward in and out).
  expect(widths.length).toBe(24);
  expect(widths.filter((w) => w.width % 32 !== 0)).toEqual([]);
  expect(new Set(widths.map((w) => w.width))).toEqual(new Set([1152, 384, 1536]));
});
