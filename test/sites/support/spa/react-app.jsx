// A React app with react-router: every page's text fetched as JSON from /data/<path>.json.
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter, Link, Navigate, Route, Routes, useLocation } from "react-router";
import { REACT_PAGES } from "./content.ts";

function Page() {
  const { pathname } = useLocation();
  const [page, setPage] = useState(null);
  useEffect(() => {
    let live = true;
    void fetch(`/data${pathname}.json`)
      .then((r) => r.json())
      .then((p) => live && setPage(p));
    return () => {
      live = false;
    };
  }, [pathname]);
  if (page === null) return <p>…</p>;
  return (
    <article>
      <h1>{page.title}</h1>
      {page.paragraphs.map((text) => (
        <p key={text.slice(0, 20)}>{text}</p>
      ))}
    </article>
  );
}

function App() {
  return (
    <BrowserRouter>
      <nav>
        <Link to="/">Start</Link> <Link to="/about">About</Link>{" "}
        <Link to="/guides/setup">Setup</Link> <Link to="/team">Team</Link>
      </nav>
      <main>
        <Routes>
          <Route path="/" element={<Navigate to="/home" replace />} />
          {REACT_PAGES.map((p) => (
            <Route key={p.path} path={p.path} element={<Page />} />
          ))}
        </Routes>
        {/* The deploy guide is linked from the setup guide's page only. */}
        <Routes>
          <Route path="/guides/setup" element={<Link to="/guides/deploy">Next: deploy</Link>} />
          <Route path="*" element={null} />
        </Routes>
      </main>
    </BrowserRouter>
  );
}

createRoot(document.getElementById("root")).render(<App />);
