import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { LinkButton } from "~/components/ui/link-button";

import { dateColumn } from "~/components/data-table/date-column";

export type ReleaseListRow = {
  id: number;
  version: string;
  versionDescription: string;
  fileName: string;
  deviceType: string | null;
  size: number;
  sha256: string;
  isActive: boolean;
  createdAt: number;
};

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The /ota grid; make-active and delete ask first (the spec's confirmation dialogs). */
export function releaseColumns(t: TFunction, can: { modify: boolean; remove: boolean }, timeZone: string): ColumnDef<ReleaseListRow>[] {
  return [
    { accessorKey: "version", header: t("version"), cell: ({ row }) => <span className="font-medium">{row.original.version}</span> },
    { accessorKey: "versionDescription", header: t("description"), cell: ({ row }) => row.original.versionDescription || "-" },
    { accessorKey: "deviceType", header: t("deviceType"), cell: ({ row }) => row.original.deviceType ?? "-" },
    { accessorKey: "size", header: t("size"), cell: ({ row }) => formatBytes(row.original.size), meta: { className: "whitespace-nowrap" } },
    {
      accessorKey: "fileName",
      header: t("file"),
      cell: ({ row }) => (
        <a
          className={buttonVariants({ variant: "link", size: "inline" })}
          href={`/resources/ota/${row.original.id}/download`}
          download
          aria-label={t("downloadVersion", { version: row.original.version })}
        >
          {row.original.fileName || t("download")}
        </a>
      ),
    },
    {
      accessorKey: "sha256",
      header: t("sha256"),
      cell: ({ row }) => (
        <code className="text-xs" title={row.original.sha256}>
          {row.original.sha256.slice(0, 12)}
        </code>
      ),
    },
    {
      accessorKey: "isActive",
      header: t("status"),
      cell: ({ row }) => (row.original.isActive ? <Badge variant="success">{t("active")}</Badge> : <Badge variant="outline">{t("inactive")}</Badge>),
    },
    dateColumn<ReleaseListRow>({ id: "createdAt", header: t("createdAt"), value: (r) => r.createdAt, timeZone }),
    {
      id: "actions",
      header: () => <span className="sr-only">{t("actions")}</span>,
      meta: { className: "w-1 whitespace-nowrap text-right" },
      cell: ({ row }) => {
        const r = row.original;
        return (
          <div className="flex flex-wrap justify-end gap-2 xl:flex-nowrap">
            {can.modify && !r.isActive && r.deviceType && (
              <LinkButton to={`/addFirmwareRollout?release=${r.id}`} variant="outline" size="sm" aria-label={t("rollOutLabel", { version: r.version })}>
                {t("rollOut")}
              </LinkButton>
            )}
            {can.modify && !r.isActive && (
              <ConfirmDialog
                trigger={
                  <Button variant="outline" size="sm">
                    {t("makeActive")}
                  </Button>
                }
                title={t("makeActiveTitle")}
                description={t("makeActiveText", { version: r.version })}
                fields={{ intent: "activate", id: r.id }}
                confirmLabel={t("makeActive")}
                cancelLabel={t("cancel")}
              />
            )}
            {can.remove && (
              <ConfirmDialog
                trigger={
                  <Button variant="outline" size="sm" aria-label={`${t("delete")} ${r.version}`}>
                    {t("delete")}
                  </Button>
                }
                title={t("deleteTitle")}
                description={t("deleteText", { version: r.version })}
                fields={{ intent: "delete", id: r.id }}
                confirmLabel={t("delete")}
                cancelLabel={t("cancel")}
                destructive
              />
            )}
          </div>
        );
      },
    },
  ];
}
