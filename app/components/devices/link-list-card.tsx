import { Link } from "@remix-run/react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

/** A titled card of links (key holders, groups) with a message when empty. */
export function LinkListCard({ title, empty, items, testId }: { title: string; empty: string; items: { id: number; label: string; to: string }[]; testId: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{empty}</p>
        ) : (
          <ul className="grid gap-1 text-sm" data-testid={testId}>
            {items.map((i) => (
              <li key={i.id}>
                <Link to={i.to} className="text-primary underline-offset-4 hover:underline">
                  {i.label}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
