CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`scopes` text DEFAULT 'read,write' NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_name_unique` ON `api_keys` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE TABLE `assets` (
	`page_id` text NOT NULL,
	`url` text NOT NULL,
	`kind` text NOT NULL,
	`alt` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`page_id`, `url`),
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `collection_members` (
	`slug` text NOT NULL,
	`domain` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`placed_by` text NOT NULL,
	`placed_at` text NOT NULL,
	PRIMARY KEY(`slug`, `domain`),
	FOREIGN KEY (`slug`) REFERENCES `collections`(`slug`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "collection_members_placed_by" CHECK("collection_members"."placed_by" IN ('person','agent'))
);
--> statement-breakpoint
CREATE INDEX `collection_members_domain` ON `collection_members` (`domain`);--> statement-breakpoint
CREATE TABLE `collections` (
	`slug` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `domains` (
	`domain` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL,
	`entry_url` text,
	`robots_status` text,
	`robots_checked_at` text,
	`last_job_id` text
);
--> statement-breakpoint
CREATE TABLE `job_url_evidence` (
	`job_id` text NOT NULL,
	`url` text NOT NULL,
	`by_sitemap` integer DEFAULT false NOT NULL,
	`by_link` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`job_id`, `url`)
);
--> statement-breakpoint
CREATE TABLE `job_urls` (
	`job_id` text NOT NULL,
	`url` text NOT NULL,
	`bucket` text NOT NULL,
	`reason` text,
	`depth` integer DEFAULT 0 NOT NULL,
	`source` text DEFAULT 'link' NOT NULL,
	`priority` real DEFAULT 0 NOT NULL,
	`page_id` text,
	`http_status` integer,
	`target` text,
	`lastmod` text,
	`updated_at` real NOT NULL,
	`elapsed_ms` real,
	PRIMARY KEY(`job_id`, `url`)
);
--> statement-breakpoint
CREATE INDEX `job_urls_bucket_age` ON `job_urls` (`job_id`,`bucket`,`updated_at`);--> statement-breakpoint
CREATE INDEX `job_urls_bucket_reason` ON `job_urls` (`job_id`,`bucket`,`reason`);--> statement-breakpoint
CREATE INDEX `job_urls_fetched` ON `job_urls` (`job_id`) WHERE "job_urls"."http_status" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`domain` text NOT NULL,
	`state` text NOT NULL,
	`params` text NOT NULL,
	`created_at` text NOT NULL,
	`started_at` text,
	`finished_at` text,
	`error` text,
	`cancel_requested` integer DEFAULT false NOT NULL,
	`lease_owner` text,
	`lease_expires_at` real,
	`fetched` integer DEFAULT 0 NOT NULL,
	`resumes` integer DEFAULT 0 NOT NULL,
	`key_id` text,
	`info` text DEFAULT '{}' NOT NULL,
	CONSTRAINT "jobs_state_check" CHECK("jobs"."state" IN ('queued','running','completed','partial','failed','cancelled'))
);
--> statement-breakpoint
CREATE INDEX `jobs_state` ON `jobs` (`state`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_domain` ON `jobs` (`domain`,`created_at`);--> statement-breakpoint
CREATE TABLE `links` (
	`src_page_id` text NOT NULL,
	`target_url` text NOT NULL,
	`target_page_id` text NOT NULL,
	`target_host` text NOT NULL,
	`anchor` text DEFAULT '' NOT NULL,
	`position` text NOT NULL,
	`internal` integer NOT NULL,
	PRIMARY KEY(`src_page_id`, `target_url`),
	FOREIGN KEY (`src_page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `links_target` ON `links` (`target_page_id`,`position`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `page_bodies` (
	`page_id` text PRIMARY KEY NOT NULL,
	`markdown` text NOT NULL,
	`explain` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `page_history` (
	`id` integer PRIMARY KEY NOT NULL,
	`page_id` text NOT NULL,
	`job_id` text,
	`fetched_at` text NOT NULL,
	`status` integer NOT NULL,
	`content_hash` text,
	`changed` integer NOT NULL,
	`etag` text,
	`last_modified` text,
	`elapsed_ms` real
);
--> statement-breakpoint
CREATE INDEX `page_history_page` ON `page_history` (`page_id`,`id`);--> statement-breakpoint
CREATE INDEX `page_history_job` ON `page_history` (`job_id`,`page_id`);--> statement-breakpoint
CREATE TABLE `page_topics` (
	`page_id` text NOT NULL,
	`topic` text NOT NULL,
	PRIMARY KEY(`page_id`, `topic`),
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `page_topics_topic` ON `page_topics` (`topic`,`page_id`);--> statement-breakpoint
CREATE TABLE `pages` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`canonical_url` text,
	`domain` text NOT NULL,
	`host` text NOT NULL,
	`title` text,
	`description` text,
	`content_hash` text NOT NULL,
	`text_hash` text NOT NULL,
	`etag` text,
	`last_modified` text,
	`http_status` integer NOT NULL,
	`fetched_at` text NOT NULL,
	`indexed_at` text NOT NULL,
	`job_id` text,
	`declared_language` text,
	`hreflang` text DEFAULT '[]' NOT NULL,
	`simhash` text,
	`type` text DEFAULT 'other' NOT NULL,
	`format` text DEFAULT 'other' NOT NULL,
	`audience` text DEFAULT 'general' NOT NULL,
	`locale` text,
	`topics` text DEFAULT '[]' NOT NULL,
	`technicality` real DEFAULT 0 NOT NULL,
	`depth` real DEFAULT 0 NOT NULL,
	`originality` real DEFAULT 1 NOT NULL,
	`promotional` real DEFAULT 0 NOT NULL,
	`has_code` integer DEFAULT false NOT NULL,
	`words` integer DEFAULT 0 NOT NULL,
	`published` text,
	`inlinks_body` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pages_url_unique` ON `pages` (`url`);--> statement-breakpoint
CREATE INDEX `pages_domain` ON `pages` (`domain`,`id`);--> statement-breakpoint
CREATE INDEX `pages_cited` ON `pages` ("inlinks_body" DESC,`id`);--> statement-breakpoint
CREATE INDEX `pages_indexed` ON `pages` ("indexed_at" DESC,`id`);--> statement-breakpoint
CREATE INDEX `pages_text_hash` ON `pages` (`domain`,`text_hash`);--> statement-breakpoint
CREATE INDEX `pages_search` ON `pages` (`id`,`domain`,`type`,`locale`,`technicality`);--> statement-breakpoint
CREATE TABLE `screenshots` (
	`page_id` text PRIMARY KEY NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`taken_at` text NOT NULL,
	`job_id` text,
	`png` blob NOT NULL,
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sitemaps` (
	`domain` text NOT NULL,
	`url` text NOT NULL,
	`job_id` text,
	`status` text NOT NULL,
	`url_count` integer DEFAULT 0 NOT NULL,
	`last_modified` text,
	`fetched_at` text NOT NULL,
	PRIMARY KEY(`domain`, `url`)
);
--> statement-breakpoint
CREATE TABLE `template_links` (
	`domain` text NOT NULL,
	`target_url` text NOT NULL,
	`anchor` text NOT NULL,
	PRIMARY KEY(`domain`, `target_url`, `anchor`)
);
