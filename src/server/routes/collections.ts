import { Elysia, t } from "elysia";
import { memberExample, shelfExample, shelfListExample } from "../../schemas/examples.ts";
import { memberBody, memberParams, shelfBody, slugParams } from "../../schemas/params.ts";
import { Applied, listSchema, Member, Shelf, ShelfWithMembers } from "../../schemas/responses.ts";
import {
  collectionView,
  placeOnShelf,
  putCollection,
  removeFromShelf,
  shelfList,
} from "../../services/collections-service.ts";
import { envelope } from "../../services/envelope.ts";
import { auth } from "../auth.ts";
import type { AppDeps } from "../deps.ts";
import { jsonBodyParser } from "../json-body.ts";
import { unrecognized } from "../query.ts";
import { described, models, responses } from "../responses.ts";

const listQuery = t.Object({});

export function collectionsRoutes(deps: AppDeps) {
  const { config, store } = deps;
  const limit = config.maxBodyRequestBytes;
  const security = [{ bearer: [] }];
  return new Elysia({ name: "routes:collections" })
    .use(models)
    .use(auth(store.read, config.publicReads))
    .get(
      "/api/collections",
      ({ request }) => envelope(shelfList(store.read), unrecognized(request, listQuery)),
      {
        auth: "read",
        response: responses(
          {
            200: listSchema(Shelf, "Every shelf with company and crawled counts", Applied.none, [
              shelfListExample,
            ]),
          },
          401,
        ),
        detail: {
          tags: ["collections"],
          summary: "All shelves with company counts and crawled counts",
        },
      },
    )
    .get("/api/collections/:slug", ({ params }) => collectionView(store.read, params.slug), {
      auth: "read",
      params: slugParams,
      response: responses(
        { 200: described(ShelfWithMembers, "The shelf and its members", shelfExample) },
        401,
        404,
      ),
      detail: {
        tags: ["collections"],
        summary: "One shelf and its members",
        description:
          "Each member carries the reason it is on the shelf and whether a person or an agent placed it there.",
      },
    })
    .put(
      "/api/collections/:slug",
      ({ params, body, set }) => {
        const { shelf, created } = putCollection(store.write, params.slug, body);
        set.status = created ? 201 : 200;
        return shelf;
      },
      {
        auth: "write",
        params: slugParams,
        parse: [jsonBodyParser(shelfBody, limit), "json"],
        body: shelfBody,
        response: responses(
          {
            200: described(
              ShelfWithMembers,
              "The shelf existed: its name and description are replaced",
              shelfExample,
            ),
            201: described(ShelfWithMembers, "The shelf is created", {
              ...shelfExample,
              companies: 0,
              crawled: 0,
              members: [],
            }),
          },
          401,
          403,
          413,
          415,
        ),
        detail: { tags: ["collections"], summary: "Create or update a shelf", security },
      },
    )
    .post(
      "/api/collections/:slug/members",
      ({ params, body, set }) => {
        const { member, created } = placeOnShelf(store.write, config, params.slug, body);
        set.status = created ? 201 : 200;
        return member;
      },
      {
        auth: "write",
        params: slugParams,
        parse: [jsonBodyParser(memberBody, limit), "json"],
        body: memberBody,
        response: responses(
          {
            200: described(
              Member,
              "The company was on the shelf: its reason and placement are updated",
              memberExample,
            ),
            201: described(Member, "The company is placed on the shelf", memberExample),
          },
          401,
          403,
          404,
          409,
          413,
          415,
        ),
        detail: {
          tags: ["collections"],
          summary: "Place a company on a shelf, with a reason",
          security,
        },
      },
    )
    .delete(
      "/api/collections/:slug/members/:domain",
      ({ params, set }) => {
        removeFromShelf(store.write, config, params.slug, params.domain);
        set.status = 204;
        return null;
      },
      {
        auth: "write",
        params: memberParams,
        response: responses(
          { 204: t.Null({ description: "Removed from the shelf (no body)" }) },
          401,
          403,
          404,
        ),
        detail: { tags: ["collections"], summary: "Take a company off a shelf", security },
      },
    );
}
