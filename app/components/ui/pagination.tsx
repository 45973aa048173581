import { useTranslation } from "react-i18next";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { pageCount, pageRange } from "~/components/data-table/params";
import { cn } from "~/utils/cn";
import { buttonVariants } from "./button";
import { ChevronLeftIcon, ChevronRightIcon, ChevronsLeftIcon, ChevronsRightIcon } from "./icons";

export interface PaginationLabels {
  navigation: string;
  first: string;
  previous: string;
  next: string;
  last: string;
  /** "1–25 of 312" */
  range: (from: number, to: number, total: number) => string;
  /** "Page 1 of 13" */
  page: (page: number, pages: number) => string;
}

export interface PaginationProps {
  /** Current page, 1-based. */
  page: number;
  pageSize: number;
  total: number;
  /** Link target for a page, e.g. `(p) => tableSearch(searchParams, { page: p })`. */
  hrefForPage: (page: number) => string;
  labels?: Partial<PaginationLabels>;
  className?: string;
}

/**
 * Row range plus first/previous/next/last links. Plain links, so paging works before
 * hydration and opens in a new tab; unavailable steps are marked `aria-disabled`.
 */
export function Pagination({ page, pageSize, total, hrefForPage, labels, className }: PaginationProps) {
  const { t } = useTranslation("common");
  const translated: PaginationLabels = {
    navigation: t("pager.navigation"),
    first: t("pager.first"),
    previous: t("pager.previous"),
    next: t("pager.next"),
    last: t("pager.last"),
    range: (from, to, total) => t("pager.range", { from, to, total }),
    page: (page, pages) => t("pager.page", { page, pages }),
  };
  const text = { ...translated, ...labels };
  const pages = pageCount(total, pageSize);
  const { from, to } = pageRange(page, pageSize, total);

  return (
    <nav aria-label={text.navigation} className={cn("flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm", className)}>
      <p className="text-muted-foreground tabular-nums">{text.range(from, to, total)}</p>
      <div className="flex items-center gap-1">
        <span className="mr-2 hidden text-muted-foreground tabular-nums sm:inline">{text.page(Math.min(page, pages), pages)}</span>
        <PageLink to={hrefForPage(1)} disabled={page <= 1} label={text.first}>
          <ChevronsLeftIcon />
        </PageLink>
        <PageLink to={hrefForPage(Math.min(page - 1, pages))} disabled={page <= 1} label={text.previous}>
          <ChevronLeftIcon />
        </PageLink>
        <PageLink to={hrefForPage(page + 1)} disabled={page >= pages} label={text.next}>
          <ChevronRightIcon />
        </PageLink>
        <PageLink to={hrefForPage(pages)} disabled={page >= pages} label={text.last}>
          <ChevronsRightIcon />
        </PageLink>
      </div>
    </nav>
  );
}

function PageLink({ to, disabled, label, children }: { to: string; disabled: boolean; label: string; children: ReactNode }) {
  const className = buttonVariants({ variant: "outline", size: "icon-sm" });
  if (disabled) {
    // A link without href is not focusable, so keyboard users skip the unavailable step.
    return (
      <a role="link" aria-disabled="true" aria-label={label} className={className}>
        {children}
      </a>
    );
  }
  return (
    <Link to={to} aria-label={label} title={label} className={className} preventScrollReset>
      {children}
    </Link>
  );
}
