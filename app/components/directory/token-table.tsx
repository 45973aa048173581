import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { ScimTokenRow } from "~/services/scim-tokens.server";
import { formatDateTime } from "~/utils/format";

/** The company's directory tokens: when each was made and last used (to five minutes), rotate and revoke. */
export function TokenTable({ tokens, zone }: { tokens: ScimTokenRow[]; zone: string }) {
  const { t, i18n } = useTranslation("directory");
  if (!tokens.length) return <p className="text-sm text-muted-foreground">{t("noTokens")}</p>;
  const when = (ms: number | null) => (ms == null ? t("never") : formatDateTime(ms, zone, i18n.language));
  return (
    <Table data-testid="directory-tokens">
      <TableHeader>
        <TableRow>
          <TableHead>{t("tokenName")}</TableHead>
          <TableHead>{t("created")}</TableHead>
          <TableHead>{t("lastUsed")}</TableHead>
          <TableHead>{t("status")}</TableHead>
          <TableHead>
            <span className="sr-only">{t("actions")}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {tokens.map((token) => (
          <TableRow key={token.id} data-testid={`directory-token-${token.id}`}>
            <TableCell className="font-medium">{token.name}</TableCell>
            <TableCell>{when(token.rotatedAt ?? token.createdAt)}</TableCell>
            <TableCell>{when(token.lastUsedAt)}</TableCell>
            <TableCell>{token.revokedAt == null ? <Badge variant="success">{t("active")}</Badge> : <Badge variant="secondary">{t("revoked")}</Badge>}</TableCell>
            <TableCell className="text-right whitespace-nowrap">
              {token.revokedAt == null && (
                <>
                  <ConfirmDialog
                    trigger={
                      <Button variant="outline" size="sm">
                        {t("rotate")}
                      </Button>
                    }
                    title={t("rotateTitle", { name: token.name })}
                    description={t("rotateHint")}
                    fields={{ intent: "rotate", id: token.id }}
                    confirmLabel={t("rotate")}
                    cancelLabel={t("cancel")}
                  />{" "}
                  <ConfirmDialog
                    trigger={
                      <Button variant="outline" size="sm">
                        {t("revoke")}
                      </Button>
                    }
                    title={t("revokeTitle", { name: token.name })}
                    description={t("revokeHint")}
                    fields={{ intent: "revoke", id: token.id }}
                    confirmLabel={t("revoke")}
                    cancelLabel={t("cancel")}
                    destructive
                  />
                </>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
