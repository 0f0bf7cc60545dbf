import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect } from "vitest";

/**
 * Opens a page of account settings' side menu and waits until its sections have their data. The click is in an
 * awaited act: a page that suspends inside a synchronous act would never be retried (React 19 queues the retry there).
 */
export async function openPage(name: string): Promise<void> {
  const button = within(screen.getByRole("navigation", { name: "Account settings pages" })).getByRole("button", {
    name,
  });
  await act(async () => {
    fireEvent.click(button);
  });
  expect(button.getAttribute("aria-current")).toBe("page");
  await waitFor(() => expect(document.querySelector(".authsim-settings-content [data-authsim-loading]")).toBeNull());
}
