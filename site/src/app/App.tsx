import { ThemeProvider } from '@aws-amplify/ui-react';
import { BrowserRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { ColorModeProvider, useColorMode } from './colorMode';
import { AppContext } from './AppContext';
import { AppRoutes } from './AppRoutes';
import { ToastRegion } from './ToastRegion';
import { adminTheme } from './theme';
import { useStartup } from './useStartup';

function Themed() {
  const { colorMode } = useColorMode();
  const startup = useStartup();
  return (
    <ThemeProvider theme={adminTheme} colorMode={colorMode}>
      <div className="app-root" style={{ colorScheme: colorMode }}>
        <AppContext.Provider value={startup}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AppContext.Provider>
        <ToastRegion />
      </div>
    </ThemeProvider>
  );
}

export function App() {
  return (
    <SWRConfig value={{ revalidateOnFocus: false }}>
      <ColorModeProvider>
        <Themed />
      </ColorModeProvider>
    </SWRConfig>
  );
}
