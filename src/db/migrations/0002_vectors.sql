CREATE TABLE `vectors` (
	`id` integer PRIMARY KEY NOT NULL,
	`key` blob NOT NULL,
	`vector` blob NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vectors_key_unique` ON `vectors` (`key`);--> statement-breakpoint
ALTER TABLE `chunks` ADD `vector_id` integer;--> statement-breakpoint
CREATE INDEX `chunks_unstored` ON `chunks` (`id`) WHERE "chunks"."embedded" = 1 AND "chunks"."vector_id" IS NULL;