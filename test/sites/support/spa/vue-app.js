// A Vue app with vue-router in history mode, written with render functions (no compiler).
import { createApp, h } from "vue";
import { createRouter, createWebHistory, RouterLink, RouterView } from "vue-router";
import { VUE_PAGES } from "./content.ts";

const routes = VUE_PAGES.map((page) => ({
  path: page.path,
  component: {
    render: () =>
      h("article", [h("h1", page.title), ...page.paragraphs.map((text) => h("p", text))]),
  },
}));

const App = {
  render: () =>
    h("div", [
      h(
        "nav",
        VUE_PAGES.map((p) => h(RouterLink, { to: p.path }, () => p.title.split(" ")[1])),
      ),
      h("main", [h(RouterView)]),
    ]),
};

const router = createRouter({ history: createWebHistory(), routes });
createApp(App).use(router).mount("#app");
