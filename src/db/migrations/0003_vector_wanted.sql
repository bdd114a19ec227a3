DROP INDEX `chunks_unstored`;--> statement-breakpoint
ALTER TABLE `chunks` ADD `vector_wanted` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `chunks_unstored` ON `chunks` (`id`) WHERE "chunks"."embedded" = 1 AND "chunks"."vector_id" IS NULL AND "chunks"."vector_wanted" = 1;