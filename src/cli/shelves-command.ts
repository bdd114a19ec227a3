import { parseArgs } from "node:util";
import { counted } from "../plural.ts";
import {
  collectionView,
  listCollections,
  placeOnShelf,
  putCollection,
  removeFromShelf,
} from "../services/collections-service.ts";
import { crawlRequest, startCrawl } from "../services/crawl-service.ts";
import { ServiceError } from "../services/errors.ts";
import { CliError, startConfig, startStore } from "./context.ts";
import { SHELVES_USAGE } from "./usage.ts";

export function shelvesCommand(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      json: { type: "boolean", default: false },
      name: { type: "string" },
      description: { type: "string" },
      reason: { type: "string" },
      "placed-by": { type: "string", default: "person" },
      budget: { type: "string" },
      refresh: { type: "boolean", default: false },
      uncrawled: { type: "boolean", default: false },
    },
    allowPositionals: true,
  });
  const [sub, slug, ...domains] = positionals;
  const placedBy = values["placed-by"];
  if (placedBy !== "person" && placedBy !== "agent")
    throw new CliError("error: --placed-by: person or agent");
  const config = startConfig();
  const store = startStore(config);
  const show = (data: unknown, line: () => string) =>
    console.log(values.json ? JSON.stringify(data, null, 2) : line());
  try {
    if (sub === "list") {
      const { rows } = listCollections(store.read, 10_000, 0);
      show(rows, () =>
        rows
          .map(
            (r) =>
              `${r.slug}\t${r.name}\t${counted(r.companies, "company", "companies")}\t${r.crawled} crawled`,
          )
          .join("\n"),
      );
      return 0;
    }
    if (!slug) throw new CliError(SHELVES_USAGE);
    switch (sub) {
      case "show": {
        const shelf = collectionView(store.read, slug);
        show(shelf, () =>
          [
            `${shelf.slug}: ${shelf.name}`,
            ...shelf.members.map(
              (m) => `  ${m.domain}\t${m.placed_by}\t${counted(m.pages, "page")}\t${m.reason}`,
            ),
          ].join("\n"),
        );
        return 0;
      }
      case "put": {
        const body = {
          name: values.name ?? slug,
          ...(values.description === undefined ? {} : { description: values.description }),
        };
        const { created } = putCollection(store.write, slug, body);
        console.error(`${created ? "created" : "updated"} ${slug}`);
        return 0;
      }
      case "add":
      case "remove":
        if (domains.length === 0) throw new CliError(SHELVES_USAGE);
        for (const domain of domains) {
          if (sub === "add")
            placeOnShelf(store.write, config, slug, {
              domain,
              reason: values.reason ?? "",
              placed_by: placedBy,
            });
          else removeFromShelf(store.write, config, slug, domain);
          console.error(`${sub === "add" ? "placed" : "removed"} ${domain}`);
        }
        return 0;
      case "crawl": {
        const budget = values.budget === undefined ? config.defaultBudget : Number(values.budget);
        for (const member of collectionView(store.read, slug).members) {
          if (values.uncrawled && member.crawled) continue;
          const job = startCrawl(
            store.write,
            crawlRequest(config, { domain: member.domain, budget, refresh: values.refresh }),
            null,
            null,
          );
          console.log(`${job.id}\t${job.domain}`);
        }
        return 0;
      }
      default:
        throw new CliError(SHELVES_USAGE);
    }
  } catch (err) {
    if (err instanceof ServiceError) throw new CliError(`error: ${err.message}`);
    throw err;
  } finally {
    store.close();
  }
}
