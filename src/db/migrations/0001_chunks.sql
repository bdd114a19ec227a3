CREATE TABLE `chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`page_id` text NOT NULL,
	`idx` integer NOT NULL,
	`heading` text DEFAULT '' NOT NULL,
	`text` text NOT NULL,
	`tokens` integer DEFAULT 0 NOT NULL,
	`embedded` integer DEFAULT false NOT NULL,
	`job_id` text,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chunks_page` ON `chunks` (`page_id`,`idx`);--> statement-breakpoint
CREATE INDEX `chunks_pending` ON `chunks` (`embedded`,`id`);--> statement-breakpoint
CREATE INDEX `chunks_job` ON `chunks` (`job_id`,`embedded`);